package conformance

import (
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// coverage records which functions the steps call through call.
type coverage struct {
	mu    sync.Mutex
	names map[string]bool
}

// call records method, a method value such as client.GetServer, as exercised and
// returns it unchanged. The name comes from the function itself, so a step cannot
// claim a method it does not call.
func call[F any](c *coverage, method F) F {
	name := runtime.FuncForPC(reflect.ValueOf(method).Pointer()).Name()

	c.mu.Lock()
	defer c.mu.Unlock()

	if c.names == nil {
		c.names = map[string]bool{}
	}

	c.names[name] = true

	return method
}

// clientMethodValue is how the runtime names a method value of *unikorn.Client:
// "<module>/internal/unikorn.(*Client).GetServer-fm".
const (
	clientMethodValuePrefix = "/internal/unikorn.(*Client)."
	methodValueSuffix       = "-fm"
)

// sendsNothing are the methods of *unikorn.Client that send no request, so no
// exchange can check them. (What the client has written is told by functions, not
// methods, so that every method is a call of the API.)
var sendsNothing = map[string]bool{}

// compare returns the exported methods of *unikorn.Client that no step called, and
// what was passed to call that is not such a method.
func (c *coverage) compare() (missing, foreign []string) {
	c.mu.Lock()
	defer c.mu.Unlock()

	called := map[string]bool{}

	for name := range c.names {
		i := strings.Index(name, clientMethodValuePrefix)
		if i < 0 || !strings.HasSuffix(name, methodValueSuffix) {
			foreign = append(foreign, name)

			continue
		}

		called[strings.TrimSuffix(name[i+len(clientMethodValuePrefix):], methodValueSuffix)] = true
	}

	client := reflect.TypeFor[*unikorn.Client]()
	for i := range client.NumMethod() {
		if name := client.Method(i).Name; !called[name] && !sendsNothing[name] {
			missing = append(missing, name)
		}
	}

	slices.Sort(foreign)

	return missing, foreign
}
