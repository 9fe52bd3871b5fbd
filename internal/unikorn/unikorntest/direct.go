// Package unikorntest serves an API client's requests without a listener, for tests
// that run in a testing/synctest bubble: there, the bubble's clock moves only when
// every goroutine waits, which a goroutine blocked on a socket never does, so that
// a server the test talks to over the network would stop the clock.
package unikorntest

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
)

// Direct is a transport that serves each request by calling handler in the caller's
// goroutine, as a listener would serve it. A handler that aborts (http.ErrAbortHandler)
// closes the connection before its answer, which the client reads as io.EOF.
func Direct(handler http.Handler) http.RoundTripper {
	return direct{handler}
}

type direct struct{ handler http.Handler }

func (d direct) RoundTrip(request *http.Request) (response *http.Response, err error) {
	if request.Body != nil {
		defer request.Body.Close()
	}

	// A request whose context has ended is not sent, as over a listener.
	if err := context.Cause(request.Context()); err != nil {
		return nil, err
	}

	defer func() {
		if recovered := recover(); recovered != nil {
			if recovered != http.ErrAbortHandler { //nolint:errorlint // panics carry the sentinel itself
				panic(recovered)
			}

			response, err = nil, io.EOF
		}
	}()

	served := request.Clone(request.Context())
	served.Host = request.URL.Host
	served.RequestURI = request.URL.RequestURI()
	served.RemoteAddr = "192.0.2.1:1234"

	if served.Body == nil {
		served.Body = http.NoBody
	}

	recorder := httptest.NewRecorder()
	d.handler.ServeHTTP(recorder, served)

	response = recorder.Result()
	response.Request = request

	return response, nil
}
