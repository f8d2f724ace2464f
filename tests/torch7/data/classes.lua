-- The Lua classes of the files of gen_classes.lua, defined as nn defines
-- them (torch.class in a namespace), so that no nn package is needed:
-- dofile'd by gen_classes.lua and dump.lua.
require 'torch'
nn = {}
package.loaded.nn = nn

local Module = torch.class('nn.Module', nn)
function Module:__init()
   self.output = torch.Tensor()
   self.gradInput = torch.Tensor()
   self.train = true
end

local Linear, parent = torch.class('nn.Linear', 'nn.Module', nn)
function Linear:__init(inputSize, outputSize)
   parent.__init(self)
   self.weight = torch.Tensor(outputSize, inputSize)
   self.bias = torch.Tensor(outputSize)
   self.gradWeight = torch.Tensor(outputSize, inputSize):zero()
   self.gradBias = torch.Tensor(outputSize):zero()
   self.weight:copy(torch.range(1, outputSize * inputSize)):div(10)
   self.bias:copy(torch.range(1, outputSize)):mul(-1)
end

torch.class('nn.Tanh', 'nn.Module', nn)

local Sequential = torch.class('nn.Sequential', 'nn.Module', nn)
function Sequential:__init()
   Module.__init(self)
   self.modules = {}
end
function Sequential:add(m)
   table.insert(self.modules, m)
   return self
end

-- a class writing its own format, version 2
test = {}
local Pair = torch.class('test.Pair', test)
Pair.__version = 2
function Pair:write(f)
   f:writeInt(self.a)
   f:writeObject(self.b)
end
function Pair:read(f, version)
   self.a = f:readInt()
   self.b = f:readObject()
   self.version = version
end

