#!/usr/bin/env bash
# Rebuilds bot/web/static/vendor/embedded-app-sdk.js, the Activity page's one copy of Discord's
# Embedded App SDK, from the npm registry: the pinned SDK bundled with the pinned esbuild into ONE
# ES module (the page has no build step and loads nothing from another origin), with the SDK's
# licence and the notices of every package the bundle contains beside it. Needs node and npm.
#
#   contrib/vendor-sdk/build.sh          rebuild, write the files and their checksum
#   contrib/vendor-sdk/build.sh --check  rebuild in a scratch folder and compare with what is committed
#
# tests/browser/test_page_files.py holds the committed bundle to the checksum this script recorded in
# vendor/SHA256SUMS, so a hand-edited or half-updated bundle fails the tests.
set -euo pipefail
# The versions are pinned in package.json beside this script and, with every dependency's, in its
# package-lock.json (`npm ci` installs exactly those): @discord/embedded-app-sdk 2.5.0 bundled by
# esbuild 0.28.2. To move to a newer SDK: change package.json, `npm install --package-lock-only`
# here, run this script, run tests/browser.

here="$(cd "$(dirname "$0")" && pwd)"
cd "$here/../.."
vendor="$PWD/bot/web/static/vendor"
check=false
if [ "${1:-}" = "--check" ]; then check=true; fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp "$here/package.json" "$here/package-lock.json" "$work/"
cd "$work"
npm ci --silent --no-audit --no-fund >/dev/null
echo "export { DiscordSDK, Events, Platform, RPCCloseCodes } from '@discord/embedded-app-sdk';" >entry.js
out="$work/out"
mkdir -p "$out"
node_modules/.bin/esbuild entry.js --bundle --format=esm --minify --target=es2020 \
  --legal-comments=none --metafile=meta.json --outfile="$out/embedded-app-sdk.js" --log-level=warning

# Every package the bundle holds code of, from esbuild's metafile, and each one's licence.
node -e '
  const meta = require("./meta.json");
  const fs = require("fs"), path = require("path");
  const pkgs = new Set();
  for (const input of Object.keys(meta.inputs)) {
    // The SDK ships its dependencies already inlined under output/lib/<package>/.
    const m = input.match(/(?:node_modules|output\/lib)\/((?:@[^/]+\/)?[^/]+)\//g);
    if (m) pkgs.add(m[m.length - 1].replace(/^(node_modules|output\/lib)\//, "").replace(/\/$/, ""));
  }
  let notices = "Third-party notices for embedded-app-sdk.js\n\n" +
    "The bundle contains code of these npm packages, each under its own licence below.\n";
  for (const name of [...pkgs].sort()) {
    const dir = path.join("node_modules", name);
    const pj = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
    const lic = fs.readdirSync(dir).find((f) => /^(licen[cs]e|copying)/i.test(f));
    notices += "\n" + "=".repeat(72) + "\n" + name + " " + pj.version + " (" + pj.license + ")\n" +
      "=".repeat(72) + "\n" + (lic ? fs.readFileSync(path.join(dir, lic), "utf8").trim() :
      "No licence file in the package; its package.json declares " + pj.license + ".") + "\n";
  }
  fs.writeFileSync(process.argv[1] + "/THIRD-PARTY-NOTICES.txt", notices);
' "$out"
cp node_modules/@discord/embedded-app-sdk/LICENSE.md "$out/LICENSE.md"
(cd "$out" && sha256sum embedded-app-sdk.js LICENSE.md THIRD-PARTY-NOTICES.txt >SHA256SUMS)
node -e 'const l = require("./package-lock.json").packages;
  console.log("@discord/embedded-app-sdk " + l["node_modules/@discord/embedded-app-sdk"].version +
    " bundled by esbuild " + l["node_modules/esbuild"].version)' >"$out/VERSION"

cd "$here/../.."
if $check; then
  diff -r "$out" "$vendor" && echo "vendor-sdk: $vendor matches a fresh build"
else
  mkdir -p "$vendor"
  cp "$out"/* "$vendor"/
  echo "vendor-sdk: wrote $vendor ($(gzip -c "$vendor/embedded-app-sdk.js" | wc -c) bytes gzipped)"
fi
