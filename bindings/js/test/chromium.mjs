// Headless Chromium for the browser test and the timing script, through
// puppeteer-core: the browser named by $CHROMIUM, else /usr/bin/chromium
// (Debian's `apt-get install chromium`). None is downloaded.

import { existsSync } from "node:fs";

export const chromiumPath = process.env.CHROMIUM || "/usr/bin/chromium";

/** Why no browser can be started here, or undefined when one can. */
export function missingBrowser() {
  return existsSync(chromiumPath)
    ? undefined
    : `no Chromium at ${chromiumPath} (install Debian's chromium, or set CHROMIUM to a Chromium or Chrome binary)`;
}

/** A headless Chromium. */
export async function launch() {
  const { default: puppeteer } = await import("puppeteer-core");
  // Chromium's sandbox cannot start as root (as in most containers).
  const args = process.getuid?.() === 0 ? ["--no-sandbox"] : [];
  return puppeteer.launch({ executablePath: chromiumPath, headless: true, args });
}
