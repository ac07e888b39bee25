/**
 * An archive item's quick-look: its synthetic scene (the same one its COGs serve) drawn in
 * true colour at 128 × 128, black outside the footprint, as real quick-looks are.
 */
import { itemScene } from '../imagery/scenes';
import { trueColourSampler } from '../imagery/scene';
import { encodePng } from '../png';
import type { ArchiveRow } from './archive';

const SIZE = 128;

export function thumbnailPng(row: ArchiveRow): Promise<Buffer> {
  return encodePng(SIZE, SIZE, trueColourSampler(itemScene(row), SIZE, SIZE));
}
