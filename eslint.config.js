// ESLint: the rules that catch bugs (a promise nobody awaits, an unused value,
// == where === was meant, `any` leaking through). Layout is Prettier's job
// (.prettierrc.json), so no rule here is about spaces or line length.
// Type-aware rules read the same tsconfig files as the type checks: the site's
// (functions/, test/), the package's (packages/littlepress: lib/, functions/,
// scripts/, test/), and layouts/desk/tsconfig.json for the desk's browser JavaScript.
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import globals from "globals";
import tseslint from "typescript-eslint";

export default defineConfig(
  globalIgnores([
    "**/_site/",
    "**/_site.*/",
    "**/.netlify/",
    // The print preview's output (npm run preview), not the source folders named preview/.
    "preview/",
    "packages/littlepress/preview/",
    "**/.test-work/",
    "**/dist/",
    "content/",
    "packages/littlepress/test/fixtures/",
    "packages/littlepress/test/live-fixtures/",
  ]),
  {
    linterOptions: {
      // A disable comment that no longer disables anything is removed, not kept "just in case".
      reportUnusedDisableDirectives: "error",
    },
  },
  {
    files: ["**/*.{js,mjs,ts,mts}"],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    // recommendedTypeChecked brings no-floating-promises, no-misused-promises,
    // no-explicit-any, no-unused-vars and the no-unsafe-* rules; these add more
    // that catch bugs rather than taste.
    rules: {
      eqeqeq: ["error", "always"],
      "no-self-compare": "error",
      "no-template-curly-in-string": "error",
      "no-unmodified-loop-condition": "error",
      "no-unreachable-loop": "error",
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-unused-vars": [
        "error",
        // `_name` marks a parameter or a destructured value kept on purpose.
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      "@typescript-eslint/switch-exhaustiveness-check": ["error", { considerDefaultExhaustiveForUnions: true }],
    },
  },
  {
    // Node: the kit, its functions, its scripts and its tests.
    files: ["**/lib/**", "**/functions/**", "**/scripts/**", "**/test/**", "**/*.{js,ts}"],
    languageOptions: { globals: globals.node },
  },
  {
    // Vitest's asymmetric matchers (expect.any(String), expect.objectContaining(…))
    // are typed `any` on purpose, so they fit any expected value; putting them in
    // an expected object is not an unsafe assignment. The other no-unsafe-* rules
    // stay on: reading untyped JSON in a test still needs a type.
    files: ["**/test/**"],
    rules: { "@typescript-eslint/no-unsafe-assignment": "off" },
  },
  {
    // The desk runs in the browser, as plain ES modules.
    files: ["**/layouts/desk/assets/**/*.js"],
    languageOptions: { globals: globals.browser },
  },
  {
    // Configuration files outside every tsconfig: the rules that need no types.
    // (The tests' blog is an author's JavaScript: its config, data and filters.)
    files: ["**/.eleventy.js", "eslint.config.js", "scripts/*.js", ".ci/tests/fixtures/**/*.js"],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
