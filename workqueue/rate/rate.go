// Package rate is a token bucket: the part of golang.org/x/time/rate that
// the work queue's TypedBucketRateLimiter uses. A Limiter holds up to burst
// tokens and gains limit tokens a second; each event takes one. Reserve
// takes a token now, or promises the next one that will come, and says how
// long until then: an event never fails, it waits.
//
// The arithmetic is x/time/rate's (tokens as a float64, refilled from the
// time since the last reservation), so that a TypedBucketRateLimiter waits
// exactly as client-go's does for the same calls at the same times.
//
// client-go counterpart: golang.org/x/time/rate v0.15.0 (the version
// k8s.io/client-go v0.37.2 requires): Limit, Inf, InfDuration, Every,
// NewLimiter, Limiter's Limit, Burst, Reserve and ReserveN, and
// Reservation's OK, Delay and DelayFrom. Left out: Allow, Wait, Cancel and
// changing the limit or burst, which the work queue does not use.
//
// Tutorial: 000 §5 (backpressure: its "EventRateLimiter" is a token
// bucket). Walkthrough: Step 19 (go test -v -run Step19 ./workqueue).
package rate

import (
	"math"
	"sync"
	"time"
)

// Limit is a rate of events: tokens added per second.
type Limit float64

// Inf is the limit that allows every event at once, whatever the burst.
const Inf = Limit(math.MaxFloat64)

// InfDuration is the wait of a reservation that can never be met.
const InfDuration = time.Duration(math.MaxInt64)

// Every returns the limit of one event per interval (Inf for 0 or less).
func Every(interval time.Duration) Limit {
	if interval <= 0 {
		return Inf
	}
	return 1 / Limit(interval.Seconds())
}

// Limiter is a token bucket of burst tokens, full at first, refilled at
// limit tokens a second. It is safe for concurrent use. Make one with
// NewLimiter.
type Limiter struct {
	mu     sync.Mutex // guards the fields below
	limit  Limit
	burst  int
	tokens float64   // tokens in the bucket at last; negative when reserved ahead
	last   time.Time // when tokens was last brought up to date
}

// NewLimiter returns a full bucket of b tokens refilled at r tokens a second.
func NewLimiter(r Limit, b int) *Limiter {
	return &Limiter{limit: r, burst: b, tokens: float64(b)}
}

// Limit returns the rate the bucket refills at.
func (lim *Limiter) Limit() Limit {
	lim.mu.Lock()
	defer lim.mu.Unlock()
	return lim.limit
}

// Burst returns the size of the bucket.
func (lim *Limiter) Burst() int {
	lim.mu.Lock()
	defer lim.mu.Unlock()
	return lim.burst
}

// Reserve is ReserveN(time.Now(), 1): one token, now.
func (lim *Limiter) Reserve() *Reservation { return lim.ReserveN(time.Now(), 1) }

// ReserveN takes n tokens at time t, from the bucket or ahead of their
// arrival, and returns when they can be used. It fails (OK is false) only
// when n is more than the bucket holds. Tests pass their own t.
func (lim *Limiter) ReserveN(t time.Time, n int) *Reservation {
	lim.mu.Lock()
	defer lim.mu.Unlock()
	if lim.limit == Inf {
		return &Reservation{ok: true, timeToAct: t}
	}
	tokens := lim.advance(t) - float64(n)
	var wait time.Duration
	if tokens < 0 {
		wait = lim.limit.durationFromTokens(-tokens) // until the missing tokens arrive
	}
	if n > lim.burst {
		return &Reservation{ok: false}
	}
	lim.last = t
	lim.tokens = tokens
	return &Reservation{ok: true, timeToAct: t.Add(wait)}
}

// advance returns the tokens the bucket holds at t: those of last, plus
// what the time since brought, at most burst. A t before last counts as
// last, so time going backwards adds nothing.
func (lim *Limiter) advance(t time.Time) float64 {
	last := lim.last
	if t.Before(last) {
		last = t
	}
	tokens := lim.tokens + lim.limit.tokensFromDuration(t.Sub(last))
	return min(tokens, float64(lim.burst))
}

// durationFromTokens is how long limit takes to bring tokens.
func (limit Limit) durationFromTokens(tokens float64) time.Duration {
	if limit <= 0 {
		return InfDuration
	}
	d := (tokens / float64(limit)) * float64(time.Second)
	if d > float64(math.MaxInt64) {
		return InfDuration
	}
	return time.Duration(d)
}

// tokensFromDuration is how many tokens limit brings in d.
func (limit Limit) tokensFromDuration(d time.Duration) float64 {
	if limit <= 0 {
		return 0
	}
	return d.Seconds() * float64(limit)
}

// Reservation is the outcome of ReserveN: the time its tokens can be used.
type Reservation struct {
	ok        bool
	timeToAct time.Time
}

// OK reports whether the tokens were reserved (false: more than the burst
// was asked for).
func (r *Reservation) OK() bool { return r.ok }

// Delay is DelayFrom(time.Now()).
func (r *Reservation) Delay() time.Duration { return r.DelayFrom(time.Now()) }

// DelayFrom is how long after t the tokens can be used: 0 if they already
// can, InfDuration if the reservation failed.
func (r *Reservation) DelayFrom(t time.Time) time.Duration {
	if !r.ok {
		return InfDuration
	}
	return max(r.timeToAct.Sub(t), 0)
}
