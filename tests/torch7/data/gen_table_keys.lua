-- Tables used as keys of tables (issue 27), written by real Lua Torch7:
-- `lua-torch gen_table_keys.lua` in this directory; read by
-- tests/torch7/test_t7_classes.py.  One table key per table (dump.lua
-- cannot order two of them); a key table also met as a value and as a key
-- elsewhere, an object as a key, a key holding a key table.
dofile('classes.lua')

local k = {1, 2}
local lin = nn.Linear(2, 1)
local t = {
   [k] = 'first',
   inner = {[k] = k},
   byobj = {[lin] = 'a module as key', module = lin},
   nested = {[{x = 1}] = {[{}] = true}},
   keys = k,
}
t.self = {[t] = 'the root as a key'}
torch.save('lua_table_keys.t7', t)
torch.save('lua_table_keys_ascii.t7', t, 'ascii')
