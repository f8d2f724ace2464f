-- Files of Lua classes, as models and checkpoints are (issue 27), written by
-- real Lua Torch7: `lua-torch gen_classes.lua` in this directory (the classes
-- are classes.lua's, defined as nn defines them, so no nn package is
-- needed); read by tests/torch7/test_t7_classes.py.  Files a plain
-- torch.load does not load (a Lua function, a class writing its own format,
-- 32-bit longs) go into not_plain/, which the general fuzzers of
-- tests/core/test_bad_input.py (every *.t7 here must load) leave out.
dofile('classes.lua')

local function model()
   local lin = nn.Linear(3, 2)
   local m = nn.Sequential():add(lin):add(nn.Tanh()):add(nn.Linear(2, 1)):add(lin)
   m.self = m                        -- an object that holds itself
   m.tied = lin.weight               -- one tensor in two fields
   m.wview = lin.weight:t()          -- a view of the same storage
   return m
end

torch.save('lua_model.t7', model())
torch.save('lua_model_ascii.t7', model(), 'ascii')

-- a class with its own read/write
local p = test.Pair()
p.a = 7
p.b = {x = torch.FloatTensor({1.5, -2})}
torch.save('not_plain/lua_pair.t7', {p, p})

-- a char-rnn-like checkpoint: protos, options, losses, a vocabulary of bytes
local vocab = {a = 1, b = 2, ['\n'] = 3, ['\255\0'] = 4}
local loops = {}
loops.me = loops                     -- a table that holds itself
torch.save('lua_checkpoint.t7', {
   protos = {rnn = model(), criterion = nn.Module()},
   opt = {rnn_size = 4, learning_rate = 2e-3, seq_length = 50, savefile = 'lstm',
          gpuid = -1, init_from = '', dropout = 0},
   train_losses = {1.5, 1.25, 0.875},
   val_losses = {[100] = 1.2, [200] = 1.1},
   i = 200, epoch = 3.5, val_loss = 1.1,
   vocab = vocab,
   flags = {yes = true, no = false},
   numbers = {0, -0.0, 2^53, -2^31, 1e300, 1/3, math.huge, -math.huge},
   loops = loops,
   longs = torch.LongTensor({{1, -2}, {2^40, 3}}),
   bytes = torch.ByteTensor({0, 255}),
})

-- a Lua function in a field
torch.save('not_plain/lua_function.t7', {name = 'f', layer = {fn = function(x) return x end}})

-- 32-bit longs (a file of a build with 4-byte longs)
local f = torch.DiskFile('not_plain/lua_long4.t7', 'w'):binary()
f:longSize(4)
f:writeObject({w = torch.Tensor({{1, 2}, {3, 4}}):t(), n = 3})
f:close()
