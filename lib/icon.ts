import sharp from "sharp";

/** The platform shows a 55x55 black-and-white PNG next to the publication's name. */
export const ICON_SIZE = 55;

// A plain default: a receipt with a torn edge and a few printed lines.
const DEFAULT_ICON = `<svg xmlns="http://www.w3.org/2000/svg" width="55" height="55" viewBox="0 0 55 55">
  <rect width="55" height="55" fill="#fff"/>
  <path d="M14 4h27v43l-4.5-4-4.5 4-4.5-4-4.5 4-4.5-4-4.5 4z" fill="none" stroke="#000" stroke-width="3" stroke-linejoin="round"/>
  <path d="M19 13h17M19 20h17M19 27h11" stroke="#000" stroke-width="3"/>
</svg>`;

/**
 * Makes the publication's icon from the author's image (any size, any
 * colours), or the default when there is none: fitted into 55x55 on white,
 * then thresholded to pure black and white as the printer would show it.
 */
export async function makeIcon(source?: Buffer): Promise<Buffer> {
  return sharp(source ?? Buffer.from(DEFAULT_ICON))
    .resize(ICON_SIZE, ICON_SIZE, { fit: "contain", background: "#ffffff" })
    .flatten({ background: "#ffffff" })
    .greyscale()
    .threshold(128)
    .png({ palette: true, colours: 2 })
    .toBuffer();
}
