/**
 * A Styled Layer Descriptor (OGC SLD 1.0.0) for a visualization's legend: one raster rule whose
 * colour map has an interval per legend class (each entry's quantity is its class's upper
 * bound) and a transparent entry below the first class. What QGIS and GeoServer read. Pure.
 */
import type { LegendItem } from '../api/records';

export function xmlEscape(s: string): string {
  return s.replace(/[<>&"']/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] as string);
}

/** `#rgb`, `#rrggbb` or `#rrggbbaa` as SLD's `#rrggbb` and an opacity. */
function colour(c: string): { hex: string; opacity: number } {
  const m = /^#?([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(c.trim());
  if (!m) return { hex: '#000000', opacity: 1 };
  let h = m[1];
  if (h.length === 3) h = h.replace(/./g, (x) => x + x);
  const opacity = h.length === 8 ? Math.round((parseInt(h.slice(6), 16) / 255) * 100) / 100 : 1;
  return { hex: `#${h.slice(0, 6).toLowerCase()}`, opacity };
}

export function sldXml(o: { layer: string; title: string; classes: readonly Pick<LegendItem, 'min' | 'max' | 'color' | 'label'>[] }): string {
  const first = o.classes[0];
  const entries = [
    ...(first ? [`            <ColorMapEntry color="#000000" quantity="${first.min}" opacity="0" label="${xmlEscape(`below ${first.min}`)}"/>`] : []),
    ...o.classes.map((c) => {
      const { hex, opacity } = colour(c.color);
      return `            <ColorMapEntry color="${hex}" quantity="${c.max}" opacity="${opacity}" label="${xmlEscape(c.label)}"/>`;
    }),
  ];
  return `<?xml version="1.0" encoding="UTF-8"?>
<StyledLayerDescriptor version="1.0.0" xmlns="http://www.opengis.net/sld" xmlns:ogc="http://www.opengis.net/ogc" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.opengis.net/sld http://schemas.opengis.net/sld/1.0.0/StyledLayerDescriptor.xsd">
  <NamedLayer>
    <Name>${xmlEscape(o.layer)}</Name>
    <UserStyle>
      <Title>${xmlEscape(o.title)}</Title>
      <FeatureTypeStyle>
        <Rule>
          <RasterSymbolizer>
            <Opacity>1.0</Opacity>
            <ColorMap type="intervals">
${entries.join('\n')}
            </ColorMap>
          </RasterSymbolizer>
        </Rule>
      </FeatureTypeStyle>
    </UserStyle>
  </NamedLayer>
</StyledLayerDescriptor>
`;
}
