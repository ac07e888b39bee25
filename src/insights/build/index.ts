// The pure builder: block spec + choices → `*.insight.json` content. No I/O, no vscode.
export * from './bands';
export * from './buildInput';
export * from './choices';
export * from './document';
export * from './geojson';
export * from './scalars';
export * from './stacItem';
