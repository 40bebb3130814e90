// The printer's paper: what every edition is rendered, checked and shown on.

/** The width of the printer's renderer and of its paper roll, in CSS pixels (1 px a dot). */
export const PAPER_WIDTH_PX = 384;
