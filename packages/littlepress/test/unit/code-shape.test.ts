// Short files named after what they hold (the project's guide, issue 51): no
// file in lib/ over 300 lines, and no function over 40 (a declaration, a
// method, a constructor, an arrow or a function expression, each counted
// from its first line to its last, the lines of functions inside it included).
// Read with the TypeScript compiler, so a function is what the language says
// one is, not what a pattern guesses.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { expect, it } from "vitest";

const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 40;

const LIB = "lib";

/** The TypeScript files under lib/, as paths from it with slashes. */
function libFiles(): string[] {
  return readdirSync(LIB, { recursive: true, encoding: "utf8" })
    .map((f) => f.split(path.sep).join("/"))
    .filter((f) => /\.m?ts$/.test(f) && !f.endsWith(".d.ts"))
    .sort();
}

/** "file name (lines)" for each function of `text` longer than MAX_FUNCTION_LINES lines. */
function longFunctions(file: string, text: string): { key: string; lines: number }[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  const found: { key: string; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    if (isFunction(node)) {
      const lines = lineOf(node.getEnd()) - lineOf(node.getStart()) + 1;
      if (lines > MAX_FUNCTION_LINES) found.push({ key: `${file} ${nameOf(node)}`, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function isFunction(node: ts.Node): node is ts.SignatureDeclaration {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

/** A function's name: its own, the variable or property it is assigned to, else "(anonymous)". */
function nameOf(node: ts.SignatureDeclaration): string {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)) && parent.initializer === node)
    return parent.name.getText();
  return "(anonymous)";
}

const files = libFiles();
const texts = new Map(files.map((f) => [f, readFileSync(path.join(LIB, f), "utf8")]));

it("reads lib/'s TypeScript", () => {
  expect(files).toContain("platform/delivering/batches.ts");
  expect(files).toContain("model/subscription.ts");
});

it(`has no file in lib/ over ${MAX_FILE_LINES} lines`, () => {
  const over = files.flatMap((f) => {
    const lines = texts.get(f)!.split("\n").length - (texts.get(f)!.endsWith("\n") ? 1 : 0);
    return lines > MAX_FILE_LINES ? [{ f, lines }] : [];
  });
  const news = over.map((o) => `${o.f}: ${o.lines} lines`);
  expect(news, `files over ${MAX_FILE_LINES} lines: split each by what it holds`).toEqual([]);
});

it(`has no function in lib/ over ${MAX_FUNCTION_LINES} lines`, () => {
  const found = files.flatMap((f) => longFunctions(f, texts.get(f)!));
  const over = found.map((l) => `${l.key}: ${l.lines} lines`);
  expect(over, `functions over ${MAX_FUNCTION_LINES} lines: shorten each`).toEqual([]);
});

it("counts a function's lines from its first to its last, nested ones found too", () => {
  const body = (n: number) => Array.from({ length: n }, (_, i) => `  const a${i} = ${i};`).join("\n");
  const text =
    `function long() {\n${body(39)}\n}\nfunction short() {\n${body(38)}\n}\n` +
    `const outer = () => {\n  return [1].map(function () {\n${body(40)}\n  });\n};\n`;
  expect(longFunctions("a.ts", text)).toEqual([
    { key: "a.ts long", lines: 41 },
    { key: "a.ts outer", lines: 44 },
    { key: "a.ts (anonymous)", lines: 42 },
  ]);
});
