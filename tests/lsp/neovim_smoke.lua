-- A smoke test of `hippo-packs server` in headless Neovim (Debian's neovim, its built-in LSP
-- client), run by tests/it/language_server.rs: an unsaved U+200B in a prompt is diagnosed, its
-- quick fix is applied as Neovim applies one, and the diagnostic is gone. What Neovim saw is
-- written to $OUT, one line a step; the buffer is never written.
local bin, file, out = os.getenv("HIPPO_PACKS"), os.getenv("PROMPT"), os.getenv("OUT")
local seen = {}
local function say(s) table.insert(seen, s); vim.fn.writefile(seen, out) end

vim.cmd("edit " .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
-- "a" then U+200B (UTF-8 bytes 226 128 139) then "b": unsaved.
vim.api.nvim_buf_set_lines(buf, 1, 1, false, { "\195\169 a\226\128\139b" })
local client = vim.lsp.start_client({
  name = "hippo-packs",
  cmd = { bin, "server" },
  root_dir = vim.fn.fnamemodify(file, ":h:h"),
  on_exit = function(code) say("exit " .. code) end,
})
vim.lsp.buf_attach_client(buf, client)

local function diagnostics()
  return vim.diagnostic.get(buf, { severity = vim.diagnostic.severity.ERROR })
end
if not vim.wait(20000, function() return #diagnostics() > 0 end, 20) then
  say("no diagnostics")
  vim.cmd("qa!")
end
for _, d in ipairs(diagnostics()) do
  local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or "?"
  -- Neovim's columns are byte columns of the buffer line, from the server's UTF-16 ones.
  say(string.format("diagnostic %s %d:%d-%d %s", code, d.lnum, d.col, d.end_col, d.message))
end

local d = diagnostics()[1]
-- The U+200B is UTF-16 column 3 of its line (`é a` before it).
local params = {
  textDocument = { uri = vim.uri_from_bufnr(buf) },
  range = { start = { line = d.lnum, character = 3 }, ["end"] = { line = d.lnum, character = 4 } },
  context = { diagnostics = {} },
}
local answers = vim.lsp.buf_request_sync(buf, "textDocument/codeAction", params, 10000) or {}
for _, answer in pairs(answers) do
  for _, action in ipairs(answer.result or {}) do
    if action.kind == "quickfix" then
      say("quickfix " .. action.title)
      vim.lsp.util.apply_workspace_edit(action.edit, "utf-16")
    end
  end
end
say("line " .. vim.api.nvim_buf_get_lines(buf, 1, 2, false)[1])
if vim.wait(20000, function() return #diagnostics() == 0 end, 20) then
  say("cleared")
else
  say("not cleared")
end
say("modified " .. tostring(vim.bo[buf].modified))
vim.lsp.stop_client(client)
if vim.wait(10000, function() return vim.lsp.client_is_stopped(client) end, 20) then
  say("stopped")
end
vim.cmd("qa!")
