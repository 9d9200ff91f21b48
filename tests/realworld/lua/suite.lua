-- Exercises the paths of the Lua implementation that an instrumenter can break: errors
-- (longjmp), pcall/xpcall/error objects, coroutines (yield across pcall), goto, closures and
-- upvalues, metatables, the string library (patterns, format, pack), integer and float
-- arithmetic, table library, GC with finalizers. Output must not depend on addresses or time.
local function check(name, ok, ...)
  print(name, ok, ...)
end

-- errors and protected calls
check("pcall", pcall(function() error("boom") end))
do local ok, e = pcall(function() error({code = 7}) end); check("pcall table", ok, type(e), e.code) end
check("error level", pcall(function() local x = nil; return x.y end))
check("xpcall", xpcall(function() return 1 + nil end, function(m) return "handled: " .. m end))
check("nested", pcall(function()
  local ok, e = pcall(error, "inner")
  error("outer after " .. tostring(e))
end))
check("tostring error", pcall(error))
check("arith error", pcall(function() return {} < {} end))
check("string to number", pcall(function() return "10" + 5, "3" * "4", 10 // 3, 7 % -3 end))
check("integer division by zero", pcall(function() return 1 // 0 end))
check("float division", 1 / 0, -1 / 0, 0 / 0 ~= 0 / 0)
check("math", math.maxinteger, math.mininteger, math.maxinteger + 1 == math.mininteger,
  math.floor(-3.5), math.ceil(-3.5), math.fmod(7, 3), math.tointeger(3.0), 3 | 5, 6 & 3, 1 << 62, ~0)
check("string.format", string.format("%5.2f|%d|%x|%q|%s|%-5s|%g", 3.14159, 42, 255, "a\nb", nil, "ab", 1e20))

-- coroutines
local gen = coroutine.wrap(function(a)
  for i = 1, 3 do a = coroutine.yield(a + i) end
  return "done " .. a
end)
print("coroutine", gen(10), gen(20), gen(30), gen(40))
local co = coroutine.create(function()
  local ok, err = pcall(function()
    coroutine.yield("yield inside pcall")
    error("after yield")
  end)
  coroutine.yield(ok, err)
  return "end"
end)
for _ = 1, 4 do print("resume", coroutine.resume(co)) end
print("status", coroutine.status(co), coroutine.isyieldable())
print("close", coroutine.close(coroutine.create(function() end)))

-- goto, closures, varargs
local out = {}
for i = 1, 10 do
  if i % 3 == 0 then goto continue end
  out[#out + 1] = i
  ::continue::
end
print("goto", table.concat(out, ","))
local function counter()
  local n = 0
  return function() n = n + 1; return n end
end
local c1, c2 = counter(), counter()
print("closures", c1(), c1(), c2(), c1())
local function va(...) return select("#", ...), ... end
print("varargs", va(1, nil, 3, nil))
print("table.pack", table.pack(1, 2, nil).n, table.unpack({1, 2, 3}, 2))

-- metatables
local V = {}
V.__index = V
V.__add = function(a, b) return setmetatable({x = a.x + b.x}, V) end
V.__tostring = function(v) return "V(" .. v.x .. ")" end
V.__eq = function(a, b) return a.x == b.x end
V.__lt = function(a, b) return a.x < b.x end
V.__len = function() return 99 end
V.__call = function(self, y) return self.x * y end
V.__close = function() print("closed") end
local a, b = setmetatable({x = 1}, V), setmetatable({x = 2}, V)
print("meta", tostring(a + b), a == b, a < b, #a, a(5))
do local _ <close> = a end
local proxy = setmetatable({}, {__index = function(_, k) return k .. "!" end,
  __newindex = function(t, k, v) rawset(t, k, v * 2) end})
proxy.z = 21
print("proxy", proxy.hello, proxy.z)

-- strings
local s = "The quick brown fox jumps over the lazy dog"
print("gsub", s:gsub("%w+", function(w) return w:upper() end))
print("find", s:find("(b%a+)"), s:match("(%a+) dog"), ("x"):rep(5, "-"))
for k, v in string.gmatch("a=1, b=2, c=3", "(%w+)=(%w+)") do io.write(k, v, ";") end
print()
print("pack", string.unpack("<i4 i8 z", string.pack("<i4 i8 z", -5, 1 << 40, "zero")))
print("utf8", utf8.len("h\u{e9}llo"), utf8.char(72, 228, 8364), #utf8.char(8364))
print("byte", s:byte(1, 5), string.char(76, 117, 97), s:sub(-3), s:reverse():sub(1, 5))

-- tables
local t = {}
for i = 1, 100 do t[i] = (i * 7919) % 101 end
table.sort(t, function(x, y) return x > y end)
print("sort", t[1], t[50], t[100], #t)
table.insert(t, 1, -1); table.remove(t); table.move(t, 1, 3, 10)
print("table", t[1], t[10], t[12], #t, next({}))

-- garbage collection with finalizers
local finalized = 0
for _ = 1, 100 do setmetatable({}, {__gc = function() finalized = finalized + 1 end}) end
collectgarbage(); collectgarbage()
print("gc", finalized, collectgarbage("isrunning"))
local weak = setmetatable({}, {__mode = "k"})
weak[{}] = 1
collectgarbage()
print("weak", next(weak))

-- load and environments
local f = load("local a, b = ... return a * b, _ENV.tag", "chunk", "t", {tag = "env"})
print("load", f(6, 7))
print("load error", load("return +"))
print("tostring", tostring(12), tostring(1.5), tostring(-0.0), 2^53, 10 // 0.0, math.type(1), math.type(1.0))
os.exit(3)
