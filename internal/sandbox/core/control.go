package core

import (
	"encoding/json"
	"maps"
	"net/http"
	"time"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// Stats counts the API requests served since start or the last reset.
type Stats struct {
	Total int `json:"total"`
	// Routes is keyed by method and route template, e.g. "GET /api/v2/servers/{serverID}".
	Routes map[string]int `json:"routes"`
	// Internal counts, by the same keys, the calls the compute service makes to region
	// and identity on its own account; Total and Routes leave them out, so they count
	// only what callers sent.
	Internal map[string]int `json:"internal,omitempty"`
}

// FaultRule makes matching API requests fail. Requests that match Method and Route
// skip the first After matches; the next Count (0: unlimited) are faulted, each with
// Probability, after waiting Delay.
type FaultRule struct {
	// Method matches the request method; empty matches any.
	Method string `json:"method,omitempty"`
	// Route is a route template such as "/api/v2/servers/{serverID}"; empty matches any.
	Route string `json:"route,omitempty"`
	// Status is answered with the standard error body; 0 drops the connection instead.
	Status int `json:"status"`
	Count  int `json:"count,omitempty"`
	After  int `json:"after,omitempty"`
	// Probability that an eligible request is faulted. Zero means the default, 1, so
	// that a rule fires unless told otherwise; over HTTP an explicit "probability": 0
	// is honoured and the rule never fires.
	Probability float64 `json:"probability,omitempty"`
	// Delay is a Go duration waited before faulting. With Phase "after" it holds the
	// answer that long, past a client's timeout, before losing it.
	Delay string `json:"delay,omitempty"`
	// Phase says when the fault strikes: "" or "before" refuses the request before the
	// service acts; "after" lets the request take effect and then loses its answer, as
	// a gateway that times out or drops the connection after the service acted does.
	Phase string `json:"phase"`
}

// Fault phases.
const (
	FaultPhaseBefore = "before"
	FaultPhaseAfter  = "after"
)

// Settings change timings and harshness at run time; an empty field leaves that
// setting unchanged.
type Settings struct {
	Latency          string `json:"latency,omitempty"`
	ProvisionDelay   string `json:"provisionDelay,omitempty"`
	DeprovisionDelay string `json:"deprovisionDelay,omitempty"`
	// ReadLag is Options.ReadLag as a Go duration; it applies to writes made afterwards.
	ReadLag string `json:"readLag,omitempty"`
	// Seed restarts the read lags' random sequence from this seed.
	Seed *uint64 `json:"seed,omitempty"`
	// ShowInvisible is Options.ShowInvisible.
	ShowInvisible *bool `json:"showInvisible,omitempty"`
}

// faultCreated is the body answering a new fault rule.
type faultCreated struct {
	ID string `json:"id"`
}

// Stats returns the request counters.
func (s *Server) Stats() Stats {
	s.faultsMu.Lock()
	defer s.faultsMu.Unlock()

	stats := Stats{Total: s.stats.Total, Routes: maps.Clone(s.stats.Routes)}
	if len(s.stats.Internal) > 0 {
		stats.Internal = maps.Clone(s.stats.Internal)
	}

	return stats
}

// ResetStats zeroes the request counters.
func (s *Server) ResetStats() {
	s.faultsMu.Lock()
	defer s.faultsMu.Unlock()

	s.stats = newStats()
}

// AddFault installs a fault rule and returns its ID.
func (s *Server) AddFault(rule FaultRule) (string, error) {
	probability := rule.Probability
	if probability == 0 {
		probability = 1
	}

	f, err := s.newFault(rule, probability)
	if err != nil {
		return "", err
	}

	return s.installFault(f), nil
}

// ClearFaults removes every fault rule.
func (s *Server) ClearFaults() {
	s.faultsMu.Lock()
	defer s.faultsMu.Unlock()

	s.faults = nil
}

func (s *Server) faultStatuses() []FaultStatus {
	s.faultsMu.Lock()
	defer s.faultsMu.Unlock()

	statuses := make([]FaultStatus, 0, len(s.faults))
	for _, f := range s.faults {
		statuses = append(statuses, f.status())
	}

	return statuses
}

// UpdateSettings changes timings and harshness. Delays apply to transitions that start
// afterwards, read lag to writes made afterwards.
func (s *Server) UpdateSettings(settings Settings) error {
	latency, err := parseSetting("latency", settings.Latency)
	if err != nil {
		return err
	}

	provisionDelay, err := parseSetting("provisionDelay", settings.ProvisionDelay)
	if err != nil {
		return err
	}

	deprovisionDelay, err := parseSetting("deprovisionDelay", settings.DeprovisionDelay)
	if err != nil {
		return err
	}

	readLag, err := parseSetting("readLag", settings.ReadLag)
	if err != nil {
		return err
	}

	if latency != nil {
		s.faultsMu.Lock()
		s.latency = *latency
		s.faultsMu.Unlock()
	}

	s.mu.Lock()
	defer s.mu.Unlock()

	if provisionDelay != nil {
		s.provisionDelay = *provisionDelay
	}

	if deprovisionDelay != nil {
		s.deprovisionDelay = *deprovisionDelay
	}

	if readLag != nil {
		s.lag.max = *readLag
	}

	if settings.Seed != nil {
		s.lag.reseed(*settings.Seed)
	}

	if settings.ShowInvisible != nil {
		s.showInvisible = *settings.ShowInvisible
	}

	s.changed()

	return nil
}

func parseSetting(name, value string) (*time.Duration, error) {
	if value == "" {
		return nil, nil
	}

	d, err := time.ParseDuration(value)
	if err != nil || d < 0 {
		return nil, BadRequest("%s %q is not a non-negative Go duration", name, value)
	}

	return &d, nil
}

func (s *Server) currentSettings() Settings {
	s.faultsMu.Lock()
	latency := s.latency
	s.faultsMu.Unlock()

	s.mu.Lock()
	defer s.mu.Unlock()

	showInvisible := s.showInvisible

	return Settings{
		Latency:          latency.String(),
		ProvisionDelay:   s.provisionDelay.String(),
		DeprovisionDelay: s.deprovisionDelay.String(),
		ReadLag:          s.lag.max.String(),
		ShowInvisible:    &showInvisible,
	}
}

// registerControlRoutes serves the control methods every family shares over HTTP
// under /sandbox/v1; families add their own with HandleControl.
func (s *Server) registerControlRoutes() {
	s.HandleControl("GET /sandbox/v1/stats", func(*http.Request) (*Reply, error) {
		return OK(s.Stats()), nil
	})

	s.HandleControl("DELETE /sandbox/v1/stats", func(*http.Request) (*Reply, error) {
		s.ResetStats()

		return NoContent(), nil
	})

	s.HandleControl("POST /sandbox/v1/faults", func(r *http.Request) (*Reply, error) {
		// An absent probability means 1, an explicit 0 means never.
		var body struct {
			FaultRule

			Probability *float64 `json:"probability"`
		}

		if err := DecodeBody(r, &body); err != nil {
			return nil, err
		}

		probability := 1.0
		if body.Probability != nil {
			probability = *body.Probability
		}

		f, err := s.newFault(body.FaultRule, probability)
		if err != nil {
			return nil, err
		}

		return Created(faultCreated{ID: s.installFault(f)}), nil
	})

	s.HandleControl("GET /sandbox/v1/faults", func(*http.Request) (*Reply, error) {
		return OK(s.faultStatuses()), nil
	})

	s.HandleControl("DELETE /sandbox/v1/faults", func(*http.Request) (*Reply, error) {
		s.ClearFaults()

		return NoContent(), nil
	})

	s.HandleControl("PUT /sandbox/v1/settings", func(r *http.Request) (*Reply, error) {
		var settings Settings
		if err := DecodeBody(r, &settings); err != nil {
			return nil, err
		}

		if err := s.UpdateSettings(settings); err != nil {
			return nil, err
		}

		return OK(s.currentSettings()), nil
	})

	s.HandleControl("GET /sandbox/v1/allocations", func(*http.Request) (*Reply, error) {
		var allocations []unikorn.Allocation

		s.Read(func(st *Store) { allocations = AllAllocations(st) })

		return OK(allocations), nil
	})

	s.registerObjectRoutes()
}

// HandleControl registers a control operation; only the fixture user, the service
// principal and the platform administrator may call them.
func (s *Server) HandleControl(pattern string, handler func(r *http.Request) (*Reply, error)) {
	s.control.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		token, ok := s.plausibleBearer(w, r)
		if !ok {
			return
		}

		if token != s.opts.Token && token != s.opts.ServiceToken && token != s.opts.PlatformAdminToken {
			WriteError(w, Forbidden("the control API is reserved to the fixture user, the service principal and the platform administrator"))

			return
		}

		rep, err := handler(r)
		if err != nil {
			WriteError(w, err)

			return
		}

		var body []byte
		if rep.Body != nil {
			if body, err = json.Marshal(rep.Body); err != nil {
				WriteError(w, err)

				return
			}
		}

		WriteJSON(w, rep.Status, "no-cache", body)
	})
}

func newStats() Stats {
	return Stats{Routes: map[string]int{}, Internal: map[string]int{}}
}
