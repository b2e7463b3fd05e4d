package ratelimit_test

import (
	"strings"
	"testing"

	"github.com/companyregistry/registry/internal/redistest"
	"github.com/companyregistry/registry/ratelimit"
)

// redis4 makes a script behave as in Redis 3.2 to 4.0, which replicate a
// script by its text: after a command whose answer differs between
// servers (TIME, RANDOMKEY), a write is refused unless the script called
// redis.replicate_commands() first (Redis 5.0 made effects replication the
// default; 7.0 made it the only mode). miniredis alone does not refuse.
const redis4 = `
local call, effects, nondet = redis.call, false, false
redis.replicate_commands = function() effects = true; return true end
redis.call = function(cmd, ...)
  local c = string.upper(cmd)
  if c == 'TIME' or c == 'RANDOMKEY' then nondet = true end
  if (c == 'SET' or c == 'DEL' or c == 'INCR' or c == 'EXPIRE') and nondet and not effects then
    error('Write commands not allowed after non deterministic commands. Call redis.replicate_commands() at the start of your script in order to switch to single commands replication mode.')
  end
  return call(cmd, ...)
end
`

// TestScriptRunsOnRedis4: the limiter's script, which writes after TIME,
// runs on Redis 3.2 to 4.0 too (issue 24, item 7): it switches to effects
// replication first. The script on a real Redis 7 is TestRedisRealServer.
func TestScriptRunsOnRedis4(t *testing.T) {
	t.Parallel()
	_, rdb := redistest.Mini(t)
	for i, want := range []int64{1, 0, 0} {
		res, err := rdb.Eval(t.Context(), redis4+ratelimit.GCRAScript, []string{"k"}, 1_000_000, 1_000_000, 1, 1).Int64Slice()
		if err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
		if res[0] != want {
			t.Errorf("call %d: %v, want allowed=%d", i+1, res, want)
		}
	}
	if !strings.HasPrefix(strings.TrimSpace(ratelimit.GCRAScript), "redis.replicate_commands()") {
		t.Error("the script does not start with redis.replicate_commands()")
	}
}
