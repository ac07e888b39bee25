// Loaded before a panel's own script: hands the bundled Natural Earth topology to it.
import countries from 'world-atlas/countries-110m.json';

(window as unknown as { eoWorldAtlas: unknown }).eoWorldAtlas = countries;
