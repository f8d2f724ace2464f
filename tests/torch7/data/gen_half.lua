-- HalfTensor / HalfStorage files, read by tests/torch7/test_t7_storage_md.py
require 'torch'
local h = torch.HalfTensor(2, 3):copy(torch.Tensor({{1/3, -2, 65504}, {1e-7, 70000, -0.0}}))
local s = torch.HalfStorage(3):copy(torch.DoubleStorage({1.5, -0.25, 0/0}))
local obj = {h, h:t(), h:narrow(2, 2, 2), s}
torch.save('lua_half.t7', obj)
torch.save('lua_half_ascii.t7', obj, 'ascii')
