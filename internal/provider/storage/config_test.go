package storage_test

import (
	"strings"
	"testing"
	"text/template"

	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/stretchr/testify/require"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/acctest"
	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

const storageAddress = "unikorn_file_storage.this"

// storageID is the ID of the storage at storageAddress in state s.
func storageID(s *terraform.State) string {
	return s.RootModule().Resources[storageAddress].Primary.ID
}

// policy is one snapshot policy of a test configuration.
type policy struct {
	Interval   string
	TimeOfDay  string
	DayOfWeek  string
	DayOfMonth int
	Keep       int
}

// config is a test configuration: the environment's provider, with Networks two
// networks of the project with storage ranges (`unikorn_network.first` and
// `unikorn_network.second`), and the file storage under test.
type config struct {
	Provider string
	RegionID string
	ClassID  string
	Networks bool

	Name        string
	Description string
	SizeGiB     int
	// Attachments are HCL expressions; nil leaves the attribute out.
	Attachments []string
	RootSquash  *bool
	// Policies nil leaves snapshot_policies out; empty writes `{}`.
	Policies   map[string]policy
	Protection *bool
	// EmptyLists writes `attachments = []` and `tags = {}`.
	EmptyLists bool
	// Extra is appended as it is.
	Extra string
}

func newConfig(t *testing.T, env *acctest.Environment) config {
	t.Helper()

	return config{
		Provider: env.ProviderConfig(), RegionID: env.RegionID, ClassID: env.StorageClassID(t),
		Name: "shared", SizeGiB: 10,
	}
}

var configTemplate = template.Must(template.New("config").Funcs(template.FuncMap{
	"q":    acctest.Quote,
	"join": strings.Join,
}).Parse(`{{.Provider}}
{{- if .Networks}}
resource "unikorn_network" "first" {
  name      = "storage-first"
  region_id = {{q .RegionID}}
  prefix    = "10.80.0.0/24"
}

resource "unikorn_network" "second" {
  name      = "storage-second"
  region_id = {{q .RegionID}}
  prefix    = "10.81.0.0/24"

  reservations = {
    prefix_length                   = 26
    provider_reserved_prefix_length = 29
  }
}
{{- end}}

resource "unikorn_file_storage" "this" {
  name             = {{q .Name}}
  region_id        = {{q .RegionID}}
  storage_class_id = {{q .ClassID}}
  size_gib         = {{.SizeGiB}}
{{- with .Description}}
  description      = {{q .}}
{{- end}}
{{- if .Attachments}}
  attachments      = [{{join .Attachments ", "}}]
{{- end}}
{{- if .EmptyLists}}
  attachments      = []
  tags             = {}
{{- end}}
{{- with .RootSquash}}
  root_squash      = {{.}}
{{- end}}
{{- with .Protection}}
  default_snapshot_protection = {{.}}
{{- end}}
{{- if ne .Policies nil}}
  snapshot_policies = {
{{- range $name, $p := .Policies}}
    {{$name}} = {
      interval = {{q $p.Interval}}
      keep     = {{$p.Keep}}
{{- with $p.TimeOfDay}}
      time_of_day = {{q .}}
{{- end}}
{{- with $p.DayOfWeek}}
      day_of_week = {{q .}}
{{- end}}
{{- with $p.DayOfMonth}}
      day_of_month = {{.}}
{{- end}}
    }
{{- end}}
  }
{{- end}}
}
{{.Extra}}`))

func (c config) String() string {
	var b strings.Builder
	if err := configTemplate.Execute(&b, c); err != nil {
		panic(err)
	}

	return b.String()
}

// records is what the sandbox holds of file storage and its quota.
type records struct {
	storage     []string
	allocations []string
}

func recordsOf(t *testing.T, env *acctest.Environment) records {
	t.Helper()

	var r records

	for _, fs := range env.FileStorage(t) {
		r.storage = append(r.storage, fs.Metadata.ID)
	}

	for _, allocation := range env.Allocations(t) {
		r.allocations = append(r.allocations, allocation.Metadata.ID)
	}

	return r
}

// storageRecord is the sandbox's record of one file storage.
func storageRecord(t *testing.T, env *acctest.Environment, id string) *unikorn.FileStorage {
	t.Helper()

	for _, fs := range env.FileStorage(t) {
		if fs.Metadata.ID == id {
			return &fs
		}
	}

	return nil
}

// chargedBytes is what the storage's allocation charges to the `filestorage` quota.
func chargedBytes(t *testing.T, env *acctest.Environment, id string) int {
	t.Helper()

	for _, allocation := range env.Allocations(t) {
		if allocation.Spec.ID == id {
			require.Len(t, allocation.Spec.Allocations, 1)
			require.Equal(t, "filestorage", allocation.Spec.Allocations[0].Kind)

			return allocation.Spec.Allocations[0].Committed
		}
	}

	return 0
}

func ptr[T any](v T) *T { return &v }
