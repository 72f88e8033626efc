// The demo page: reads the chosen files, calls `verify`, shows the verdict.

import { verify } from "../browser.js";

const $ = (id) => document.getElementById(id);

/** The text of the file chosen in `input`, or undefined. */
async function fileText(input) {
  const file = input.files[0];
  return file ? file.text() : undefined;
}

/** The expectation the form describes, or undefined for none. */
async function expectation() {
  const minSecurityBits = Number($("min-security").value || 100);
  const kind = $("kind").value;
  if (!kind) return { minSecurityBits };
  const expected = { kind, inputs: (await fileText($("inputs"))) ?? "", minSecurityBits };
  for (const param of ["hash", "scheme", "ctx", "interface"]) {
    const value = $(param).value.trim();
    if (value) expected[param] = value;
  }
  const circuit = await fileText($("circuit"));
  if (circuit !== undefined) expected.circuit = circuit;
  return expected;
}

function show(verdict, cls, details = [], outputs = []) {
  $("verdict").textContent = verdict;
  $("verdict").className = cls;
  $("verdict").dataset.verdict = cls;
  $("details").replaceChildren(
    ...details.flatMap(([term, value]) => {
      const dt = document.createElement("dt");
      dt.textContent = term;
      const dd = document.createElement("dd");
      dd.textContent = value;
      return [dt, dd];
    }),
  );
  $("outputs").textContent = outputs.join("\n");
}

$("form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const file = $("proof").files[0];
  if (!file) return show("Choose a proof file.", "unreadable");
  const proof = new Uint8Array(await file.arrayBuffer());
  const expected = await expectation();
  const start = performance.now();
  try {
    const v = verify(proof, expected);
    const ms = performance.now() - start;
    show(
      expected.kind
        ? `Accepted: the proof proves the expected ${v.kind} statement.`
        : "Accepted (against nothing but itself): compare its kind, circuit and public digest with what you expect.",
      "accepted",
      [
        ["kind", v.kind],
        ["count", String(v.count)],
        ["circuit", v.circuit],
        ["public digest", v.publicDigest],
        ["security", `${v.securityBits.toFixed(1)} bits`],
        ["verified in", `${ms.toFixed(1)} ms`],
      ],
      v.outputs,
    );
  } catch (e) {
    const cls = { StarlingRejected: "rejected", StarlingUnreadable: "unreadable" }[e.name] ?? "error";
    show(`${e.name}: ${e.message}`, cls);
  }
});
// Enabled once the module (and with it the WebAssembly) has loaded.
$("verify").disabled = false;
