-- `lua-torch dump.lua FILE [MODE]`: a canonical description of the object in
-- a .t7 file (classes.lua's classes known), one the tests compare with the
-- same description of what strided loads (tests/torch7/test_t7_classes.py's
-- dump) and of what Lua loads from strided's files.  Keys in order (numbers,
-- strings by bytes, booleans, then a table or object, described in place: at
-- most one per table, as two cannot be ordered); strings quoted when plain, else in hex;
-- numbers "%.17g"; each table, object, tensor and storage numbered when first met and
-- "ref N" after.
dofile(arg[0]:gsub('dump%.lua$', 'classes.lua'))
local ids, count = {}, 0
local function num(x) return string.format('%.17g', x) end
local function str(s)        -- "name" when plain, else x and its bytes in hex
   if s:match('^[%w_]*$') then return '"' .. s .. '"' end
   return 'x' .. s:gsub('.', function(c) return string.format('%02x', c:byte()) end)
end
local rank = {number = 1, string = 2, boolean = 3}
local function before(a, b)
   local ra, rb = rank[type(a)] or 4, rank[type(b)] or 4
   if ra ~= rb then return ra < rb end
   if type(a) == 'boolean' then return (not a) and b end
   if ra == 4 then return false end
   return a < b
end
local dump
local function key(k, indent)
   if type(k) == 'string' then return str(k) end
   if type(k) == 'number' then return num(k) end
   if type(k) == 'boolean' then return tostring(k) end
   return '[' .. dump(k, indent) .. ']'
end
local function seen(id)
   if ids[id] then return 'ref ' .. ids[id] end
   count = count + 1
   ids[id] = count
end
local function storage(s)
   local r = seen('S' .. torch.pointer(s))
   if r then return r end
   local v = {}
   for i = 1, s:size() do v[i] = num(s[i]) end
   return string.format('#%d %s [%s]', count, torch.typename(s), table.concat(v, ' '))
end
function dump(o, indent)
   local t = type(o)
   if t == 'nil' then return 'nil' end
   if t == 'boolean' then return tostring(o) end
   if t == 'number' then return num(o) end
   if t == 'string' then return str(o) end
   local name = torch.typename(o)
   if name and name:match('Storage$') then return storage(o) end
   local r = seen(name and name:match('Tensor$') and 'T' .. torch.pointer(o) or o)
   if r then return r end
   if name and name:match('Tensor$') then
      if o:dim() == 0 then return string.format('#%d %s empty', count, name) end
      return string.format('#%d %s size {%s} stride {%s} offset %d storage %s', count, name,
                           table.concat(o:size():totable(), ' '),
                           table.concat(o:stride():totable(), ' '),
                           o:storageOffset(), storage(o:storage()))
   end
   local keys = {}
   for k in pairs(o) do keys[#keys + 1] = k end
   table.sort(keys, before)
   local lines = {string.format('#%d %s {', count, name or 'table')}
   for _, k in ipairs(keys) do
      local described = key(k, indent .. '  ')
      lines[#lines + 1] = indent .. '  ' .. described .. ' = ' .. dump(o[k], indent .. '  ')
   end
   lines[#lines + 1] = indent .. '}'
   return table.concat(lines, '\n')
end
print(dump(torch.load(arg[1], arg[2] or 'binary'), ''))
