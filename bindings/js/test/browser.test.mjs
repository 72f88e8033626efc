// The demo page in headless Chromium: choose a proof and its expected
// inputs through the page's file inputs, click Verify, read the verdict.
// Skipped when no Chromium is installed, unless STARLING_REQUIRE_BROWSER=1
// (then it fails).

import assert from "node:assert/strict";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it, before, after } from "node:test";

import { launch, missingBrowser } from "./chromium.mjs";
import { cases, cliVerify, packageDir, prove, scratch } from "./helpers.mjs";
import { serve } from "./server.mjs";

const missing = missingBrowser();
const required = process.env.STARLING_REQUIRE_BROWSER === "1";
const skip = missing && !required ? `skipped: ${missing}; STARLING_REQUIRE_BROWSER=1 makes this a failure` : false;
if (skip) console.log(`browser test ${skip}`);

describe("the demo page in Chromium", { skip }, () => {
  const dir = scratch("browser");
  const screenshots = join(packageDir, "test-output");
  let browser;
  let served;
  before(async () => {
    assert.equal(missing, undefined, missing);
    served = await serve(packageDir);
    browser = await launch();
    console.log(`browser: ${await browser.version()}`);
  });
  after(async () => {
    await browser?.close();
    served?.server.close();
  });

  /** Verifies `proof` against `expect` (a file) in a fresh page: the verdict shown. */
  async function verifyInPage(c, proof, expect, screenshot) {
    const page = await browser.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e));
    try {
      await page.goto(`${served.url}/demo/index.html`);
      await page.waitForSelector("#verify:not([disabled])");
      await (await page.$("#proof")).uploadFile(proof);
      await (await page.$("#inputs")).uploadFile(expect);
      await page.select("#kind", c.kind);
      for (const [param, value] of Object.entries(c.params)) {
        if (param === "circuit") {
          const path = join(dir, "circuit.txt");
          writeFileSync(path, value);
          await (await page.$("#circuit")).uploadFile(path);
        } else {
          await page.type(`#${param}`, value);
        }
      }
      await page.click("#verify");
      await page.waitForFunction(() => document.querySelector("#verdict").dataset.verdict !== "");
      const shown = await page.evaluate(() => ({
        verdict: document.querySelector("#verdict").dataset.verdict,
        text: document.querySelector("#verdict").textContent,
        outputs: document.querySelector("#outputs").textContent,
        details: [...document.querySelectorAll("#details dd")].map((dd) => dd.textContent),
      }));
      if (screenshot) {
        mkdirSync(screenshots, { recursive: true });
        await page.screenshot({ path: join(screenshots, screenshot), fullPage: true });
      }
      assert.deepEqual(errors, []);
      return shown;
    } finally {
      await page.close();
    }
  }

  for (const name of ["sha256", "merkle-root sha256 rfc6962", "circuit"]) {
    it(`accepts a ${name} proof and shows its outputs`, async () => {
      const c = cases().find((c) => c.name === name);
      const files = prove(c, dir);
      const cli = JSON.parse(cliVerify(files.proof, files.expect, c, ["--json"]).stdout);
      const shown = await verifyInPage(c, files.proof, files.expect, name === "sha256" ? "demo.png" : undefined);
      assert.equal(shown.verdict, "accepted", shown.text);
      assert.equal(shown.outputs, cli.outputs.join("\n"));
      assert.ok(shown.details.includes(cli.public_digest));
    });
  }

  it("rejects a tampered proof with the command line's words", async () => {
    const c = cases().find((c) => c.name === "sha256");
    const files = prove(c, dir);
    const proof = readFileSync(files.proof);
    proof[proof.length >> 1] ^= 0x10;
    const tampered = join(dir, "tampered.proof");
    writeFileSync(tampered, proof);
    const cli = cliVerify(tampered, files.expect, c);
    assert.equal(cli.code, 1, cli.stderr);
    const shown = await verifyInPage(c, tampered, files.expect, "demo-rejected.png");
    assert.equal(shown.verdict, "rejected");
    assert.equal(shown.text, `StarlingRejected: ${cli.message}`);
    assert.equal(shown.outputs, "");
  });
});
