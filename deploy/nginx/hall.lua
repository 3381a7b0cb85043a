-- The hall's predictions, taken by nginx itself (issue 34; docs/performance.md, Goal 8).
--
-- A prediction is one Redis script. Through the referee's Python processes it cost the server
-- about 1.3 ms of CPU in a burst of 10,000 (a websocket frame, Socket.IO, Flask, redis-py, the
-- acknowledgement, nginx both ways); nginx running the same script itself, a worker's
-- predictions of 20 ms in one pipeline (below), brings it to about 0.3 ms, and the processes keep
-- their loop for the screens and the players. Nothing is decided here that the
-- referee does not decide the same way: the script is the referee's own (every process stores
-- it in Redis at its start: crowd._PREDICT), the form's checks are the server's (their sizes come
-- from hall.json), and every refusal is the server's own answer, word for word (hall.json,
-- written by `referee hall-config`: referee/server/hall.py). tests/test_hall.py sends the same
-- predictions both ways and compares the answers.
--
-- Debian: apt install libnginx-mod-http-lua lua-nginx-redis lua-cjson. deploy/nginx/referee.conf
-- loads this file (init in nginx's master, which may read the root-only hall.json).

local cjson = require "cjson.safe"
local semaphore = require "ngx.semaphore"  -- lua-resty-core, a dependency of Debian's Lua module
-- lua-resty-redis: Debian's lua-nginx-redis names it nginx.redis, OpenResty resty.redis
local found, redis = pcall(require, "nginx.redis")
if not found then redis = require "resty.redis" end

local M = {}
local conf          -- hall.json
local device_key    -- its device_key, as bytes
local patterns = {} -- the forms, as Lua patterns
local sha           -- the prediction script's SHA1, once loaded
local fixed = {}    -- question key -> {log, hold show, hold released}: fixed once asked
local fixed_count = 0
local pair = { at = -1, ready = false }  -- whether writes wait for the standby (read once a second)

local function digits(range)
  return "^" .. string.rep("%d", range[1]) .. string.rep("%d?", range[2] - range[1]) .. "$"
end

function M.init(path)
  local file = assert(io.open(path, "r"), "hall.json not found: " .. path)
  conf = assert(cjson.decode(file:read("*a")), "hall.json is not JSON")
  file:close()
  for _, name in ipairs({ "username", "password", "port" }) do  -- JSON's null: none
    if conf.redis[name] == cjson.null then conf.redis[name] = nil end
  end
  device_key = (conf.device_key:gsub("%x%x", function (h) return string.char(tonumber(h, 16)) end))
  local chars = "[%w_%-]"
  patterns.device = "^(" .. string.rep(chars, conf.device_chars[1]) .. ")%.(" .. string.rep(chars, conf.device_chars[2]) .. ")$"
  patterns.question = digits(conf.question_digits)
  patterns.option = digits(conf.option_digits)
end

local function reply(status, body)
  ngx.status = status
  ngx.header["Content-Type"] = "application/json"
  ngx.header["Cache-Control"] = "no-store"
  ngx.header["Content-Length"] = #body
  ngx.print(body)
  return ngx.exit(status)
end

local function refuse(why)
  local err = conf.errors[why]
  return reply(err.status, err.body)
end

local function b64url(bytes)
  return (ngx.encode_base64(bytes):gsub("+", "-"):gsub("/", "_"):gsub("=", ""))
end

-- The device id of the cookie, if the referee issued it (referee/server/devices.py).
local function device()
  local id = ngx.var["cookie_" .. conf.cookie]
  if not id then return nil end
  local token, tag = id:match(patterns.device)
  if not token or b64url(ngx.hmac_sha1(device_key, "referee-device:" .. token):sub(1, 12)) ~= tag then
    return nil
  end
  return id
end

local function connect()
  local red = redis:new()
  -- 1 s to connect and send, 2 s for an answer; Debian's lua-nginx-redis (0.27) has one
  -- set_timeout for all three (2 s). Any other name is sent to Redis as a command (set_timeouts
  -- there: before the connection, so nothing set, nginx's 60 s, an error logged), hence rawget.
  if rawget(redis, "set_timeouts") then red:set_timeouts(1000, 1000, 2000) else red:set_timeout(2000) end
  local ok, err = red:connect(conf.redis.host, conf.redis.port)
  if not ok then return nil, err end
  if red:get_reused_times() == 0 then
    if conf.redis.password then
      if conf.redis.username then ok, err = red:auth(conf.redis.username, conf.redis.password)
      else ok, err = red:auth(conf.redis.password) end
      if not ok then red:close(); return nil, err end
    end
    if conf.redis.db ~= 0 then
      ok, err = red:select(conf.redis.db)
      if not ok then red:close(); return nil, err end
    end
  end
  return red
end

local function fixed_of(red, q)
  local found = fixed[q]
  if found then return found end
  local res, err = red:hmget(q, "log", "n", "hold_show", "hold_released")
  if not res then return nil, err end
  if res[2] == ngx.null then return false end
  local function key(v) return (v == ngx.null or v == "") and conf.none_key or v end  -- as the server's
  found = { key(res[1]), key(res[3]), key(res[4]) }
  if fixed_count > 10000 then fixed, fixed_count = {}, 0 end
  fixed[q], fixed_count = found, fixed_count + 1
  return found
end

-- The prediction script's SHA1, loaded from the text the referee stored (once a worker, and
-- again after Redis lost its scripts).
local function load_script(red)
  local text, err = red:get(conf.script_key)
  if not text then return nil, err end
  if text == ngx.null then return nil, "the referee has not stored its prediction script yet" end
  local loaded
  loaded, err = red:script("load", text)
  if not loaded then return nil, err end
  sha = loaded
  return sha
end

local function failed(res)  -- a pipeline's reply: a Redis error is {false, message}
  return type(res) == "table" and res[1] == false
end

-- With a standby: a prediction is acknowledged once the replica has it, while the referee's
-- watch says the replica is there (referee/store/replication.py), as the server's writes.
local function copied(red)
  if conf.replicas < 1 then return true end
  local now = ngx.now()
  if now - pair.at >= 1 then
    local ready = red:get(conf.ready_key)
    pair.at, pair.ready = now, ready == "1"
  end
  if pair.ready then
    local copies = red:wait(conf.replicas, 250)
    if copies and copies < conf.replicas then pair.ready = false end
  end
  return true
end

-- Group commit. With appendfsync always (nothing acknowledged is lost) Redis writes and fsyncs
-- its append-only file once for each turn of its loop that wrote; a burst's predictions, each on
-- its own turn, cost Redis an fsync each: more CPU than the script itself (docs/performance.md,
-- Goal 8). So a worker gathers the predictions that arrive within conf.gather_ms and sends them
-- to Redis as one pipeline: one read, one fsync and one write for all of them, and each
-- prediction still its own script, run whole and in the order it came, its time (the board's
-- tie-break) the time it arrived here (the script is told how long it waited). A prediction is
-- acknowledged only after Redis answered the pipeline, that is after the fsync (and, with a
-- standby, after the replica has it: one WAIT a batch).
local gathering     -- this worker's batch still gathering predictions, if any
local BATCH_MAX = 100  -- at most this many a pipeline: Redis serves no one else while it runs one

local function run_batch(batch)
  local red, err = connect()
  if not red then return nil, err end
  if not sha then
    local loaded
    loaded, err = load_script(red)
    if not loaded then red:close(); return nil, err end
  end
  local calls, results = batch.calls, batch.results
  ngx.update_time()
  local now = ngx.now()
  for i, call in ipairs(calls) do  -- how long each waited here: its time is when it arrived
    call[#call + 1] = math.floor((now - batch.arrived[i]) * 1000)
  end
  red:init_pipeline(#calls)
  for _, call in ipairs(calls) do red:evalsha(sha, unpack(call)) end
  local replies
  replies, err = red:commit_pipeline()
  if not replies then red:close(); return nil, err end
  local lost = false  -- Redis restarted without its scripts: none of those ran; load it, run them again
  for i, res in ipairs(replies) do
    if failed(res) and tostring(res[2]):find("NOSCRIPT", 1, true) then lost = true else results[i] = res end
  end
  if lost then
    local loaded
    loaded, err = load_script(red)
    if not loaded then red:close(); return nil, err end
    for i, call in ipairs(calls) do
      if not results[i] then
        results[i], err = red:evalsha(sha, unpack(call))
        if not results[i] then results[i] = { false, err } end
      end
    end
  end
  copied(red)
  red:set_keepalive(60000, 64)
  return true
end

local function flush(_, batch)
  if gathering == batch then gathering = nil end  -- what arrives now gathers for the next one
  local ok, done, err = pcall(run_batch, batch)
  if not ok then batch.err = done elseif not done then batch.err = err end
  batch.sema:post(#batch.calls)
end

-- Runs one prediction's script call in this worker's next batch; its reply, or nil and why.
local function commit(call)
  local batch = gathering
  if not batch then
    batch = { calls = {}, arrived = {}, results = {}, sema = semaphore.new() }
    local ok, err = ngx.timer.at(conf.gather_ms / 1000, flush, batch)
    if not ok then return nil, err end
    gathering = batch
  end
  local i = #batch.calls + 1
  batch.calls[i], batch.arrived[i] = call, ngx.now()
  if i >= BATCH_MAX then gathering = nil end  -- full: it leaves at its time, the next gathers anew
  local ok, err = batch.sema:wait(10)
  if not ok then return nil, "no answer from the batch: " .. err end
  if batch.err then return nil, batch.err end
  local res = batch.results[i]
  if failed(res) then return nil, res[2] end
  return res
end

-- The device's and the address's rate windows (the server's REFEREE_RATE_CROWD_DEVICE and
-- _ADDRESS, counted as the script counts them: fixed windows from the epoch), kept in this nginx's
-- memory (lua_shared_dict referee_hall_rates, shared by its workers) rather than in Redis: a
-- window is gone a few seconds later, and in Redis every count was written to the append-only
-- file, fsynced, and deleted again on expiry (two keys a prediction: half of what a prediction
-- wrote; docs/performance.md, Goal 8). Whether this send is one too many.
local function over(who, limit)
  local rates = ngx.shared.referee_hall_rates
  local n, err = rates:incr(who .. ":" .. math.floor(ngx.time() / limit[2]), 1, 0, limit[2] + 1)
  if not n then
    ngx.log(ngx.ERR, "the hall's rate windows: ", err)
    return false
  end
  return n > limit[1]
end

function M.predict(show)
  local id = device()
  if not id then return refuse("no_device") end
  ngx.req.read_body()
  local form = ngx.req.get_post_args(16)
  local question, option = form.question, form.option
  if type(question) ~= "string" or not question:match(patterns.question)
      or not show:match("^[a-z0-9][a-z0-9%-]*$") or #show > 40 then
    return refuse("no_question")
  end
  if type(option) ~= "string" or not option:match(patterns.option) then return refuse("bad_option") end
  local base = conf.prefix .. "crowd:" .. show .. ":"
  local q = base .. "q:" .. question
  local f, err = fixed[q], nil
  if not f then
    local red
    red, err = connect()
    if red then
      f, err = fixed_of(red, q)
      if f == nil then red:close() else red:set_keepalive(60000, 64) end
    end
    if f == false then return refuse("no_question") end
    if not f then
      ngx.log(ngx.ERR, "the hall's Redis: ", err)
      return refuse("server")
    end
  end
  if over("dev:" .. id, conf.limits.device) or over("addr:" .. ngx.var.remote_addr, conf.limits.address) then
    return refuse("rate")
  end
  local keys = { q, f[1], base .. "v:" .. question, base .. "c:" .. question, base .. "t:" .. question, base .. "board",
                 conf.none_key, conf.none_key, f[2], f[3] }
  local call = { #keys }
  for _, list in ipairs({ keys, { id, tonumber(option), "", "", "", "" } }) do  -- "": the windows are kept here
    for _, v in ipairs(list) do call[#call + 1] = v end
  end
  local res
  res, err = commit(call)
  if not res then
    ngx.log(ngx.ERR, "the hall's prediction script: ", err)
    return refuse("server")
  end
  local status = res[1]
  if status == "ok" or status == "again" then
    return reply(200, '{"ok": true, "prediction": {"question": "' .. question .. '", "option": ' .. tonumber(res[2])
                 .. ', "again": ' .. (status == "again" and "true" or "false") .. '}}')
  end
  return refuse(status)
end

return M
