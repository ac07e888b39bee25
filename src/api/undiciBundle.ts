// Entry of dist/undici.js: undici on its own, required lazily by the extension bundle.
export * from 'undici';
