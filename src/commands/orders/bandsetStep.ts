/**
 * Order Tasking's bandset step: the bands a capture records. Over an AOI it offers the bandsets
 * of the AOI's satellite (all of them, saying so, when none is listed for it); each row names
 * the satellites it is for and its bands.
 */
import { l10n } from 'vscode';
import type { Bandset, EoClient, Satellite } from '../../api';
import type { CommandServices } from '../services';
import { outcome, type Step } from '../../ui/multiStep';
import { satellitesOf } from '../../orders/bandsetFit';

/** The entries the bandset step fills in. */
export interface BandsetEntries {
  bandsetId: string;
  bandsetLabel: string;
  /** The satellite that captures, named in the priced summary (the AOI's, or the bandset's only one). */
  satelliteLabel?: string;
}

/**
 * The bandsets to offer: those that fit the AOI's satellite (`fitting`), or every one when
 * none does or there is no AOI (`offered`).
 */
export function bandsetChoice(
  list: readonly Bandset[],
  sats: readonly Satellite[],
  satelliteId: string | undefined,
): { satellite?: Satellite; fitting: Bandset[]; offered: Bandset[] } {
  const satellite = satelliteId ? sats.find((x) => x.id === satelliteId) : undefined;
  const fitting = satellite ? list.filter((b) => satellitesOf(b, [satellite]).length > 0) : [];
  return { satellite, fitting, offered: fitting.length ? fitting : [...list] };
}

/** Puts the chosen bandset in the entries, with the satellite that captures when it is only one. */
export function chooseBandset(s: BandsetEntries, bandset: Bandset, satellite: Satellite | undefined, sats: readonly Satellite[]): void {
  s.bandsetId = bandset.id;
  s.bandsetLabel = bandset.name;
  const capturing = satellite ? [satellite] : satellitesOf(bandset, sats);
  s.satelliteLabel = capturing.length === 1 ? capturing[0].name : undefined;
}

/** The step, listing bandsets and satellites once per wizard; `satelliteId` is the AOI's satellite. */
export function bandsetStep<S extends BandsetEntries>(services: CommandServices, client: EoClient, satelliteId: string | undefined): Step<S> {
  let bandsets: Promise<Bandset[]> | undefined;
  // The satellite list names which satellite each bandset is for; without it every bandset is offered.
  let satellites: Promise<Satellite[]> | undefined;
  return {
    name: l10n.t('Bandset'),
    describe: (s) => s.bandsetLabel,
    async ask(s, ui) {
      const [list, sats] = await Promise.all([
        (bandsets ??= client.bandsets.list()),
        // Recovers from a satellite list that cannot be read: every bandset is offered instead.
        (satellites ??= client.search.satellites().catch((err: unknown) => {
          services.log.warn(`Order tasking: satellites not listed, every bandset offered: ${String(err)}`);
          return [] as Satellite[];
        })),
      ]);
      const { satellite, fitting, offered } = bandsetChoice(list, sats, satelliteId);
      const items = offered.map((b) => {
        const forSats = satellitesOf(b, sats)
          .map((x) => x.name)
          .join(', ');
        const bands = b.bands.map((x) => x.name).join(', ');
        return {
          label: b.name,
          description: forSats,
          detail: b.description ? l10n.t('Bands {0} — {1}', bands, b.description) : l10n.t('Bands {0}', bands),
          bandset: b,
        };
      });
      const satName = satellite?.name ?? satelliteId;
      const placeHolder = fitting.length
        ? l10n.t("Bands to capture with {0} (the AOI's satellite)", satellite!.name)
        : satName
          ? l10n.t("Bands to capture (no bandset is listed for {0}, the AOI's satellite: all are shown)", satName)
          : l10n.t('Bands to capture');
      const answer = await ui.pick(items, { placeHolder, activeLabel: s.bandsetLabel, matchOnDescription: true });
      return outcome(answer, (i) => chooseBandset(s, i.bandset, satellite, sats));
    },
  };
}
