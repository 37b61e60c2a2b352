import assert from "node:assert/strict";
import { asciiLower, isGitName, isSecretName } from "../../lib/workspace/names.ts";

Deno.test("isSecretName: refuses every name of the secret list in any ASCII letter case", () => {
  for (
    const name of [
      ".env",
      ".ENV",
      ".env.local",
      ".Env.Production",
      "server.pem",
      "SERVER.PEM",
      "tls.key",
      "cert.p12",
      "cert.PFX",
      "id_rsa",
      "ID_RSA.pub",
      "id_ed25519",
      "id_ecdsa_sk",
      ".npmrc",
      ".PyPiRc",
      ".netrc",
      ".git-credentials",
      "credentials.json",
      "Credentials.Json",
      "release.keystore",
      ".pem",
      "a.b.KEY",
    ]
  ) {
    assert.ok(isSecretName(name), name);
  }
});

Deno.test("isSecretName: serves env templates and ordinary names", () => {
  for (
    const name of [
      ".env.example",
      ".ENV.Sample",
      ".env.template",
      "env",
      ".envrc",
      "key.ts",
      "keys",
      "pem.md",
      "my_id_rsa_notes.txt",
      "credentials.yaml",
      "main.ts",
    ]
  ) {
    assert.ok(!isSecretName(name), name);
  }
});

Deno.test("isSecretName: folds ASCII letters only (the Kelvin sign is not K)", () => {
  assert.ok(!isSecretName(".\u212Aey".replace(".", "a.")));
  assert.equal(asciiLower("\u212A"), "\u212A");
});

Deno.test("isGitName: matches .git in any ASCII letter case only", () => {
  assert.ok(isGitName(".git"));
  assert.ok(isGitName(".GiT"));
  assert.ok(!isGitName(".gitignore"));
  assert.ok(!isGitName("git"));
});
