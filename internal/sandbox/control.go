package sandbox

import (
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"slices"
	"strings"
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
func (s *Sandbox) Stats() Stats {
	s.faultsMu.Lock()
	defer s.faultsMu.Unlock()

	stats := Stats{Total: s.stats.Total, Routes: maps.Clone(s.stats.Routes)}
	if len(s.stats.Internal) > 0 {
		stats.Internal = maps.Clone(s.stats.Internal)
	}

	return stats
}

// ResetStats zeroes the request counters.
func (s *Sandbox) ResetStats() {
	s.faultsMu.Lock()
	defer s.faultsMu.Unlock()

	s.stats = newStats()
}

// AddFault installs a fault rule and returns its ID.
func (s *Sandbox) AddFault(rule FaultRule) (string, error) {
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
func (s *Sandbox) ClearFaults() {
	s.faultsMu.Lock()
	defer s.faultsMu.Unlock()

	s.faults = nil
}

func (s *Sandbox) faultStatuses() []faultStatus {
	s.faultsMu.Lock()
	defer s.faultsMu.Unlock()

	statuses := make([]faultStatus, 0, len(s.faults))
	for _, f := range s.faults {
		statuses = append(statuses, f.status())
	}

	return statuses
}

// UpdateSettings changes timings and harshness. Delays apply to transitions that start
// afterwards, read lag to writes made afterwards.
func (s *Sandbox) UpdateSettings(settings Settings) error {
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
		return nil, errBadRequest("%s %q is not a non-negative Go duration", name, value)
	}

	return &d, nil
}

func (s *Sandbox) currentSettings() Settings {
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

// Allocations returns every identity allocation in every project, sorted by ID: the
// administrator's view that leak checks need.
func (s *Sandbox) Allocations() []unikorn.Allocation {
	s.mu.Lock()
	defer s.mu.Unlock()

	s.advanceLocked()

	allocations := make([]unikorn.Allocation, 0, len(s.world.Allocations))
	for _, allocation := range s.world.Allocations {
		allocations = append(allocations, copyAllocation(allocation))
	}

	slices.SortFunc(allocations, func(a, b unikorn.Allocation) int {
		return strings.Compare(a.Metadata.ID, b.Metadata.ID)
	})

	return allocations
}

// LoadBalancers returns every load balancer as it is, not as a lagging read shows it,
// sorted by ID: what a check that one is gone needs.
func (s *Sandbox) LoadBalancers() []unikorn.LoadBalancer {
	s.mu.Lock()
	defer s.mu.Unlock()

	s.advanceLocked()

	loadBalancers := make([]unikorn.LoadBalancer, 0, len(s.world.LoadBalancers))
	for _, record := range byID(s.world.LoadBalancers) {
		loadBalancers = append(loadBalancers, record.LoadBalancer)
	}

	// Encoded while locked, so that no caller shares a slice with the world.
	data, err := json.Marshal(loadBalancers)
	if err != nil {
		panic(err) // The world saves as JSON, so every record encodes.
	}

	loadBalancers = nil
	if err := json.Unmarshal(data, &loadBalancers); err != nil {
		panic(err)
	}

	return loadBalancers
}

// FailServer makes a server's provisioning fail, as a cloud failure would: its status
// becomes error and stays so until it is updated or deleted.
func (s *Sandbox) FailServer(id string) error {
	s.mu.Lock()
	defer s.mu.Unlock()

	s.advanceLocked()

	// The failure reaches readers through the same cache as any other change.
	before := s.lag.snapshot(s.world)
	defer s.lag.record(before, s.world, s.now())

	record, ok := s.world.Servers[id]
	if !ok {
		return errNotFound()
	}

	s.changed()

	metadata := &record.Server.Metadata.ReadMetadata
	metadata.ProvisioningStatus = unikorn.ProvisioningError
	metadata.HealthStatus = unikorn.HealthError

	// A deletion in progress still completes; anything else stops where it is.
	if metadata.DeletionTime == nil {
		record.Lifecycle = nil
		record.Rebuild = false
	}

	return s.saveLocked()
}

// advanceLocked brings the world up to date for a control call. Callers hold mu.
// Transitions it applies lag for readers like those applied during an API request.
func (s *Sandbox) advanceLocked() {
	if s.advanceLagged(s.now()) {
		if err := s.saveLocked(); err != nil {
			s.logger.Error("saving sandbox state", "error", err)
		}
	}
}

// registerControlRoutes serves the Go control methods over HTTP under /sandbox/v1.
func (s *Sandbox) registerControlRoutes() {
	s.control = http.NewServeMux()

	s.handleControl("GET /sandbox/v1/stats", func(*http.Request) (*reply, error) {
		return replyOK(s.Stats()), nil
	})

	s.handleControl("DELETE /sandbox/v1/stats", func(*http.Request) (*reply, error) {
		s.ResetStats()

		return replyNoContent(), nil
	})

	s.handleControl("POST /sandbox/v1/faults", func(r *http.Request) (*reply, error) {
		// An absent probability means 1, an explicit 0 means never.
		var body struct {
			FaultRule

			Probability *float64 `json:"probability"`
		}

		if err := decodeBody(r, &body); err != nil {
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

		return replyCreated(faultCreated{ID: s.installFault(f)}), nil
	})

	s.handleControl("GET /sandbox/v1/faults", func(*http.Request) (*reply, error) {
		return replyOK(s.faultStatuses()), nil
	})

	s.handleControl("DELETE /sandbox/v1/faults", func(*http.Request) (*reply, error) {
		s.ClearFaults()

		return replyNoContent(), nil
	})

	s.handleControl("PUT /sandbox/v1/settings", func(r *http.Request) (*reply, error) {
		var settings Settings
		if err := decodeBody(r, &settings); err != nil {
			return nil, err
		}

		if err := s.UpdateSettings(settings); err != nil {
			return nil, err
		}

		return replyOK(s.currentSettings()), nil
	})

	s.handleControl("GET /sandbox/v1/allocations", func(*http.Request) (*reply, error) {
		return replyOK(s.Allocations()), nil
	})

	s.handleControl("GET /sandbox/v1/loadbalancers", func(*http.Request) (*reply, error) {
		return replyOK(s.LoadBalancers()), nil
	})

	s.handleControl("POST /sandbox/v1/servers/{serverID}/fail", func(r *http.Request) (*reply, error) {
		if err := s.FailServer(r.PathValue("serverID")); err != nil {
			return nil, err
		}

		return replyNoContent(), nil
	})

	s.handleControl("PUT /sandbox/v1/imagesources", func(r *http.Request) (*reply, error) {
		var source ImageSource
		if err := decodeBody(r, &source, "uri"); err != nil {
			return nil, err
		}

		if err := s.SetImageSource(source); err != nil {
			return nil, err
		}

		return replyNoContent(), nil
	})

	s.handleControl("DELETE /sandbox/v1/imagesources", func(*http.Request) (*reply, error) {
		s.ClearImageSources()

		return replyNoContent(), nil
	})

	s.registerObjectRoutes()
	s.registerFileStorageControlRoutes()
}

// handleControl registers a control operation; only the fixture user and the service
// principal may call them.
func (s *Sandbox) handleControl(pattern string, handler func(r *http.Request) (*reply, error)) {
	s.control.HandleFunc(pattern, func(w http.ResponseWriter, r *http.Request) {
		token, err := bearerToken(r)
		if err == nil && !s.plausibleToken(token) {
			err = errors.New("token validation failed")
		}

		if err != nil {
			writeUnauthorized(w, r, err)

			return
		}

		if token != s.token && token != ServiceToken {
			writeError(w, errForbidden("the control API is reserved to the fixture user and the service principal"))

			return
		}

		rep, err := handler(r)
		if err != nil {
			writeError(w, err)

			return
		}

		var body []byte
		if rep.body != nil {
			if body, err = json.Marshal(rep.body); err != nil {
				writeError(w, err)

				return
			}
		}

		writeJSON(w, rep.status, "no-cache", body)
	})
}

func newStats() Stats {
	return Stats{Routes: map[string]int{}, Internal: map[string]int{}}
}

// ProjectReferences names what holds a project's deletion now: region's objects in it
// and compute's instances, the services' references identity would keep.
func (s *Sandbox) ProjectReferences(projectID string) []string {
	s.mu.Lock()
	defer s.mu.Unlock()

	s.advanceLocked()

	return s.world.ProjectReferences(projectID)
}
