// Debian's python3-pil, the library sirius converts prints with, run on PNG
// files to compare our conversion with it. /usr/bin/python3 on purpose: a
// python3 earlier on PATH (pyenv, a virtualenv) may lack PIL. .ci/run installs
// python3-pil when `import PIL` fails.
import { execFile } from "node:child_process";
import { promisify } from "node:util";

export const PYTHON = "/usr/bin/python3";

/**
 * For each file, what PIL makes of it: "convert" is Image.convert('1') alone,
 * "print" is sirius's png_pipeline (crop to 384 x min(h, 10000), then
 * convert('1')). Each result is written beside the file as <file>.pil, one
 * byte a pixel (0 or 255), and its size printed as "<w> <h>" a line.
 */
const SCRIPT = `
import sys
from PIL import Image
mode = sys.argv[1]
for name in sys.argv[2:]:
    im = Image.open(name)
    if mode == "print":
        im = im.crop((0, 0, 384, min(im.size[1], 10000)))
    dots = im.convert("1")
    with open(name + ".pil", "wb") as f:
        f.write(dots.convert("L").tobytes())
    print(dots.size[0], dots.size[1])
`;

export async function pilConvert(
  mode: "convert" | "print",
  files: string[],
): Promise<{ width: number; height: number }[]> {
  const { stdout } = await promisify(execFile)(PYTHON, ["-c", SCRIPT, mode, ...files], {
    timeout: 60_000,
    maxBuffer: 1 << 20,
  });
  return stdout
    .trim()
    .split("\n")
    .map((line) => {
      const [width, height] = line.split(" ").map(Number);
      return { width: width!, height: height! };
    });
}

/** `import PIL` works under /usr/bin/python3; and its version. */
export async function pilVersion(): Promise<string> {
  const { stdout } = await promisify(execFile)(PYTHON, ["-c", "import PIL; print(PIL.__version__)"], {
    timeout: 20_000,
  });
  return stdout.trim();
}
