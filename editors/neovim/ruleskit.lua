-- ruleskit rule packs in Neovim (0.11+): put this file in your config (e.g. ~/.config/nvim/plugin/ruleskit.lua).
vim.filetype.add({ extension = { rk = "ruleskit" } })

vim.lsp.config("ruleskit", {
  cmd = { "ruleskit", "lsp" },
  filetypes = { "ruleskit", "toml" },
  root_markers = { "pack.toml" },
})
vim.lsp.enable("ruleskit")

-- Comments start with '#'.
vim.api.nvim_create_autocmd("FileType", {
  pattern = "ruleskit",
  callback = function() vim.bo.commentstring = "# %s" end,
})
