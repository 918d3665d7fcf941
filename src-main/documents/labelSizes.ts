import type { LabelSize } from '../../src-shared/schemas/carrier';

/**
 * The physical pages behind each label size, portrait (width < height), so a 100×150 mm label is
 * rendered, spooled and printed as 100×150 mm and never shrunk onto A4 or turned sideways.
 */

export const POINTS_PER_MM = 72 / 25.4;
/** Thermal label printers at 203 dpi print 8 dots per millimetre. */
export const ZPL_DOTS_PER_MM = 8;
export const ZPL_DPI = 203;

export interface LabelDimensions {
  widthMm: number;
  heightMm: number;
  /** PDF user-space units (1/72 in). */
  widthPt: number;
  heightPt: number;
  /** ZPL dots at 203 dpi (`^PW`, `^LL`). */
  widthDots: number;
  heightDots: number;
  /** The CUPS media name to pass to the spooler (`lp -o media=…`). */
  cupsMedia: string;
}

export const mmToPoints = (mm: number): number => mm * POINTS_PER_MM;
export const mmToDots = (mm: number): number => Math.round(mm * ZPL_DOTS_PER_MM);

function dimensions(widthMm: number, heightMm: number, cupsMedia: string): LabelDimensions {
  return {
    widthMm,
    heightMm,
    widthPt: mmToPoints(widthMm),
    heightPt: mmToPoints(heightMm),
    widthDots: mmToDots(widthMm),
    heightDots: mmToDots(heightMm),
    cupsMedia,
  };
}

export const labelDimensions: Readonly<Record<LabelSize, Readonly<LabelDimensions>>> = {
  A4: dimensions(210, 297, 'A4'),
  A6: dimensions(105, 148, 'A6'),
  '100X150': dimensions(100, 150, 'Custom.100x150mm'),
  '100X192': dimensions(100, 192, 'Custom.100x192mm'),
};
