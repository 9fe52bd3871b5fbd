package main

import (
	"net"
	"net/http"
	"strconv"
)

// serveImages serves, at every path, the first sector of a raw disk image: a master
// boot record, which is what region reads of an image's URL before it imports it
// (pkg/handler/image validateImage). It answers a range request with exactly the 512
// bytes asked for, as region expects. The acceptance tests' image URLs point here
// (acctest.EnvImageURL).
func serveImages() (string, func(), error) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}

	sector := make([]byte, 512)
	sector[510], sector[511] = 0x55, 0xaa

	server := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.WriteHeader(http.StatusMethodNotAllowed)

			return
		}

		w.Header().Set("Content-Type", "application/octet-stream")
		w.Header().Set("Content-Length", strconv.Itoa(len(sector)))

		if r.Header.Get("Range") == "bytes=0-511" {
			w.Header().Set("Content-Range", "bytes 0-511/512")
			w.WriteHeader(http.StatusPartialContent)
		}

		_, _ = w.Write(sector)
	})}

	go func() { _ = server.Serve(listener) }()

	return "http://" + listener.Addr().String(), func() { _ = server.Close() }, nil
}
