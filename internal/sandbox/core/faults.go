package core

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// fault is an installed FaultRule with its counters.
type fault struct {
	id          string
	rule        FaultRule
	probability float64
	delay       time.Duration
	// matched counts requests that matched the rule; fired counts those it faulted.
	matched int
	fired   int
}

// FaultStatus is a fault rule as the control API lists it.
type FaultStatus struct {
	ID string `json:"id"`
	FaultRule
	Probability float64 `json:"probability"`
	Matched     int     `json:"matched"`
	Fired       int     `json:"fired"`
}

// newFault validates a rule. probability is already resolved: the caller decides what
// an absent probability means.
func (s *Server) newFault(rule FaultRule, probability float64) (*fault, error) {
	rule.Method = strings.ToUpper(rule.Method)

	if rule.Phase != "" && rule.Phase != FaultPhaseBefore && rule.Phase != FaultPhaseAfter {
		return nil, BadRequest("phase %q is neither %q (refuse the request) nor %q (act, then lose the answer)", rule.Phase, FaultPhaseBefore, FaultPhaseAfter)
	}

	if rule.Route != "" && !s.isRoute(rule.Method, rule.Route) {
		return nil, BadRequest("route %q is not an API route template for method %q", rule.Route, rule.Method)
	}

	if rule.Status != 0 && (rule.Status < 400 || rule.Status > 599) {
		return nil, BadRequest("status %d is neither 0 (drop the connection) nor an error status", rule.Status)
	}

	if rule.Count < 0 || rule.After < 0 {
		return nil, BadRequest("count and after must not be negative")
	}

	if probability < 0 || probability > 1 {
		return nil, BadRequest("probability %v is outside [0, 1]", probability)
	}

	var delay time.Duration

	if rule.Delay != "" {
		d, err := time.ParseDuration(rule.Delay)
		if err != nil || d < 0 {
			return nil, BadRequest("delay %q is not a non-negative Go duration", rule.Delay)
		}

		delay = d
	}

	return &fault{rule: rule, probability: probability, delay: delay}, nil
}

func (s *Server) installFault(f *fault) string {
	s.faultsMu.Lock()
	defer s.faultsMu.Unlock()

	s.nextFaultID++
	f.id = strconv.Itoa(s.nextFaultID)
	s.faults = append(s.faults, f)

	return f.id
}

// countRequest records a request in the stats and returns the latency to add to it.
// Every API request counts, faulted or not.
func (s *Server) countRequest(pattern string, internal bool) time.Duration {
	s.faultsMu.Lock()
	defer s.faultsMu.Unlock()

	if internal {
		if pattern != "" {
			s.stats.Internal[pattern]++
		}

		return 0
	}

	s.stats.Total++

	if pattern != "" {
		s.stats.Routes[pattern]++
	}

	return s.latency
}

// matchFault returns the first rule that faults a request on the given route pattern,
// updating every matching rule's counters on the way.
func (s *Server) matchFault(pattern string) *fault {
	if pattern == "" {
		return nil
	}

	method, route, _ := strings.Cut(pattern, " ")

	s.faultsMu.Lock()
	defer s.faultsMu.Unlock()

	for _, f := range s.faults {
		if (f.rule.Method != "" && f.rule.Method != method) || (f.rule.Route != "" && f.rule.Route != route) {
			continue
		}

		f.matched++

		if f.matched <= f.rule.After {
			continue
		}

		if f.rule.Count > 0 && f.fired >= f.rule.Count {
			continue
		}

		//nolint:gosec // Fault probability is a simulation, not security.
		if rand.Float64() >= f.probability {
			continue
		}

		f.fired++
		snapshot := *f

		return &snapshot
	}

	return nil
}

// inject answers a faulted request: after the rule's delay, with the standard error
// body for its status, or by dropping the connection without a response. A rule of
// phase "after" first lets the request take effect and throws its answer away, as a
// gateway does when it gives up on a service that goes on to finish the work.
func (s *Server) inject(w http.ResponseWriter, r *http.Request, f *fault) {
	s.logger.Info("injecting fault", "fault", f)

	if f.rule.Phase == FaultPhaseAfter {
		s.api.ServeHTTP(&lostAnswer{header: http.Header{}}, r)
	}

	if !sleep(r.Context(), f.delay) {
		return
	}

	if f.rule.Status != 0 {
		WriteError(w, ErrorForStatus(f.rule.Status))

		return
	}

	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		// Connections that cannot be hijacked (HTTP/2) are aborted by the server instead.
		panic(http.ErrAbortHandler)
	}

	_ = conn.Close()
}

func (f *fault) status() FaultStatus {
	return FaultStatus{ID: f.id, FaultRule: f.rule, Probability: f.probability, Matched: f.matched, Fired: f.fired}
}

func (f *fault) String() string {
	return fmt.Sprintf("rule %s (%s %s, status %d, phase %q)", f.id, f.rule.Method, f.rule.Route, f.rule.Status, f.rule.Phase)
}

// lostAnswer is the response of a request whose answer never reaches the client.
type lostAnswer struct {
	header http.Header
}

func (l *lostAnswer) Header() http.Header { return l.header }

func (l *lostAnswer) Write(b []byte) (int, error) { return len(b), nil }

func (l *lostAnswer) WriteHeader(int) {}
