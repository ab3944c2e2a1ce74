// Draws the app's icon and store images: assets/icon.svg (by hand, below)
// and the PNGs, rendered from one SVG scene with sharp (installed with the
// Homey CLI in test/node_modules). Run: node test/make-images.mjs
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const sharp = require('sharp');
const here = (p) => new URL(`../${p}`, import.meta.url);

/** The switchboard: a panel of six jacks, two patch cords and a speech bubble. */
function drawing(stroke) {
  return `
  <g fill="none" stroke="${stroke}" stroke-linecap="round" stroke-linejoin="round">
    <rect x="14" y="30" width="72" height="46" rx="8" stroke-width="5"/>
    <circle cx="32" cy="46" r="5" stroke-width="4"/>
    <circle cx="50" cy="46" r="5" stroke-width="4"/>
    <circle cx="68" cy="46" r="5" stroke-width="4"/>
    <circle cx="32" cy="62" r="5" stroke-width="4"/>
    <circle cx="50" cy="62" r="5" stroke-width="4"/>
    <circle cx="68" cy="62" r="5" stroke-width="4"/>
    <path d="M32 67 C32 96, 68 96, 68 67" stroke-width="4"/>
    <path d="M50 67 C50 80, 44 86, 40 96" stroke-width="4"/>
    <path d="M58 8 h26 a6 6 0 0 1 6 6 v10 a6 6 0 0 1 -6 6 h-16 l-8 6 v-6 h-2 a6 6 0 0 1 -6 -6 v-10 a6 6 0 0 1 6 -6 z" stroke-width="4"/>
  </g>`;
}

const icon = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100" width="100" height="100">${drawing('#000000')}
</svg>
`;
writeFileSync(here('assets/icon.svg'), icon);

function scene(width, height) {
  const size = Math.min(width, height) * 0.8;
  const x = (width - size) / 2;
  const y = (height - size) / 2;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#1D5C72"/>
      <stop offset="1" stop-color="#0E2F3B"/>
    </linearGradient>
  </defs>
  <rect width="${width}" height="${height}" fill="url(#bg)"/>
  <svg x="${x}" y="${y}" width="${size}" height="${size}" viewBox="0 0 100 100">${drawing('#FFFFFF')}</svg>
</svg>`;
}

for (const [name, width, height] of [['small', 250, 175], ['large', 500, 350], ['xlarge', 1000, 700]]) {
  await sharp(Buffer.from(scene(width, height))).png({ compressionLevel: 9 }).toFile(new URL(`../assets/images/${name}.png`, import.meta.url).pathname);
}
console.log('assets/icon.svg and assets/images/{small,large,xlarge}.png written');
