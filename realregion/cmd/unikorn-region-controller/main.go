// Command unikorn-region-controller is region v1.20.0 in one process (package
// harness): its server, its controllers and its simulated provider, over a fake
// Kubernetes client, with the identity it is given. It is named as region's own
// server binary, whose name region reports as its service's (pkg/constants), and the
// runner stamps its version as region's Makefile does.
//
// It writes region's base URL to -url-file once it serves, and stops on SIGINT or
// SIGTERM.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/unikorn-cloud/terraform-provider-unikorn/realregion/harness"
)

func main() {
	identity := flag.String("identity", "", "identity's base URL")
	listen := flag.String("listen", "127.0.0.1:0", "region's address")
	urlFile := flag.String("url-file", "", "file to write region's base URL to once it serves")

	var regions regionFlags

	flag.Var(&regions, "region", "a region, ID=name or ID=name=organizationID (repeatable)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	h, err := harness.Start(ctx, harness.Options{IdentityURL: *identity, Listen: *listen, Regions: regions, Log: os.Stderr})
	if err != nil {
		fmt.Fprintln(os.Stderr, "unikorn-region-controller:", err)
		os.Exit(1)
	}

	if *urlFile != "" {
		if err := os.WriteFile(*urlFile, []byte(h.URL+"\n"), 0o600); err != nil {
			fmt.Fprintln(os.Stderr, "unikorn-region-controller:", err)
			h.Close()
			os.Exit(1)
		}
	}

	fmt.Println(h.URL)

	<-ctx.Done()
	h.Close()
}

// regionFlags are the regions given with -region.
type regionFlags []harness.Region

func (r *regionFlags) String() string { return fmt.Sprint(*r) }

func (r *regionFlags) Set(value string) error {
	parts := strings.Split(value, "=")
	if len(parts) < 2 || len(parts) > 3 || parts[0] == "" || parts[1] == "" {
		return fmt.Errorf("%q is not ID=name or ID=name=organizationID", value)
	}

	region := harness.Region{ID: parts[0], Name: parts[1]}
	if len(parts) == 3 {
		region.Organizations = []string{parts[2]}
	}

	*r = append(*r, region)

	return nil
}
