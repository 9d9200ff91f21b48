-- CPU-bound benchmark (also run by bench/runtime): recursion, table-heavy loops, string
-- building, closures. ARG: scale (default 1, about 0.1 s natively).
local scale = tonumber(arg and arg[1]) or 1
local function fib(n) if n < 2 then return n end return fib(n - 1) + fib(n - 2) end
local function sieve(n)
  local composite, count = {}, 0
  for i = 2, n do
    if not composite[i] then
      count = count + 1
      for j = i * i, n, i do composite[j] = true end
    end
  end
  return count
end
local function spectral(n)
  local function A(i, j) local ij = i + j - 1; return 1.0 / (ij * (ij - 1) * 0.5 + i) end
  local function Av(x, y, N) for i = 1, N do local a = 0 for j = 1, N do a = a + x[j] * A(i, j) end y[i] = a end end
  local function Atv(x, y, N) for i = 1, N do local a = 0 for j = 1, N do a = a + x[j] * A(j, i) end y[i] = a end end
  local u, v, t = {}, {}, {}
  for i = 1, n do u[i] = 1 end
  for _ = 1, 10 do Av(u, t, n) Atv(t, v, n) Av(v, t, n) Atv(t, u, n) end
  local vBv, vv = 0, 0
  for i = 1, n do local ui, vi = u[i], v[i]; vBv = vBv + ui * vi; vv = vv + vi * vi end
  return math.sqrt(vBv / vv)
end
local function strings(n)
  local parts = {}
  for i = 1, n do parts[#parts + 1] = string.format("%d:%x", i, i * 31) end
  local s = table.concat(parts, ",")
  local sum = 0
  for num in s:gmatch("(%d+):") do sum = sum + tonumber(num) end
  return #s, sum
end
local total = 0
for _ = 1, scale do
  total = total + fib(24) + sieve(200000)
end
print("fib+sieve", total)
print("spectral", string.format("%.9f", spectral(60 * scale)))
print("strings", strings(20000 * scale))
