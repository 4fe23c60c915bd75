-- Neovim's own LSP client driving ws lsp, for tests/e2e/lsp_nvim_test.cpp:
-- open a file, make a typo, see the diagnostic, fix it, go to a
-- definition, rename across files, write them, stop the server. Each step
-- appends a line to WS_NVIM_LOG; a step that times out logs "timeout ..."
-- and ends the script.
local root = os.getenv("WS_NVIM_ROOT")
local log_path = os.getenv("WS_NVIM_LOG")
local lines = {}

local function log(s) table.insert(lines, s) end
local function finish()
  vim.fn.writefile(lines, log_path)
  vim.cmd("qa!")
end
local function wait_for(what, condition)
  if not vim.wait(20000, condition, 20) then
    log("timeout " .. what)
    finish()
  end
end

local client_id = vim.lsp.start_client({
  name = "ws",
  cmd = { os.getenv("WS_NVIM_SERVER"), "lsp" },
  root_dir = root,
})
log("started " .. tostring(client_id ~= nil))

vim.cmd("edit " .. root .. "/ai-tools/TLroute01.cs")
local route = vim.api.nvim_get_current_buf()
vim.lsp.buf_attach_client(route, client_id)
wait_for("initialize", function()
  local c = vim.lsp.get_client_by_id(client_id)
  return c ~= nil and c.initialized
end)
log("initialized")

-- Billing -> Bxlling, as a key press would.
vim.api.nvim_buf_set_text(route, 7, 25, 7, 26, { "x" })
wait_for("typo diagnostic", function() return #vim.diagnostic.get(route) > 0 end)
for _, d in ipairs(vim.diagnostic.get(route)) do
  log(string.format("diagnostic %d:%d-%d:%d %s %s", d.lnum, d.col, d.end_lnum, d.end_col,
    tostring(d.user_data and d.user_data.lsp and d.user_data.lsp.code or d.code), d.message))
end
vim.api.nvim_buf_set_text(route, 7, 25, 7, 26, { "i" })
wait_for("diagnostic cleared", function() return #vim.diagnostic.get(route) == 0 end)
log("cleared")

-- Go to definition from `Agents.Billing`.
vim.api.nvim_win_set_cursor(0, { 8, 26 })
vim.lsp.buf.definition()
wait_for("definition", function() return vim.api.nvim_buf_get_name(0):match("AGbilling01%.json$") ~= nil end)
local cursor = vim.api.nvim_win_get_cursor(0)
log(string.format("definition %s %d:%d", vim.fn.fnamemodify(vim.api.nvim_buf_get_name(0), ":t"), cursor[1], cursor[2]))

-- Rename from the referrer, across every file, then write them all.
vim.cmd("buffer " .. route)
vim.api.nvim_win_set_cursor(0, { 8, 26 })
vim.lsp.buf.rename("Payments")
wait_for("rename", function()
  return vim.api.nvim_buf_get_lines(route, 7, 8, false)[1]:find("Agents.Payments", 1, true) ~= nil
end)
vim.cmd("silent wall")
log("renamed " .. vim.api.nvim_buf_get_lines(route, 7, 8, false)[1])

vim.lsp.stop_client(client_id)
wait_for("stop", function() return vim.lsp.client_is_stopped(client_id) end)
log("stopped")
finish()
