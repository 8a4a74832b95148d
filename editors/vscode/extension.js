// Starts `ruleskit lsp` for .rk files and the TOML files of rule packs.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("ruleskit").get("command");
  client = new LanguageClient(
    "ruleskit",
    "ruleskit",
    { command, args },
    {
      documentSelector: [
        { scheme: "file", language: "ruleskit" },
        { scheme: "file", language: "toml" },
      ],
    },
  );
  client.start();
  context.subscriptions.push(client);
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
