package compute

import (
	"context"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/unikorn-cloud/terraform-provider-unikorn/internal/unikorn"
)

// catalogue caches the slow-changing look-ups that validation repeats for every
// instance of a run (networks, flavors, images), shared by everything in one provider
// process. Concurrent misses for one key share a single request. An entry that lacks
// the item asked for is reloaded once before the façade calls the item unknown, so a
// stale cache can delay nothing but can never reject a valid reference.
type catalogue struct {
	client *unikorn.Client
	ttl    time.Duration
	now    func() time.Time

	mu      sync.Mutex
	entries map[string]cacheEntry
	flight  singleflight.Group
}

type cacheEntry struct {
	value    any
	loadedAt time.Time
}

func newCatalogue(client *unikorn.Client, ttl time.Duration) *catalogue {
	return &catalogue{client: client, ttl: ttl, now: time.Now, entries: map[string]cacheEntry{}}
}

// cached returns the value under key, loading it when absent, expired, or loaded
// before notBefore (a caller's way to insist on data fresher than what it saw).
// Concurrent callers share one load, which therefore runs detached from any one
// caller's cancellation (the client's own timeouts bound it): a caller that gives up
// stops waiting for it, but does not fail the others.
func cached[T any](ctx context.Context, c *catalogue, key string, notBefore time.Time, load func(context.Context) (T, error)) (T, time.Time, error) {
	var zero T

	c.mu.Lock()
	entry, ok := c.entries[key]
	c.mu.Unlock()

	if ok && c.now().Sub(entry.loadedAt) < c.ttl && !entry.loadedAt.Before(notBefore) {
		return entry.value.(T), entry.loadedAt, nil //nolint:forcetypeassert // one key, one type
	}

	shared := context.WithoutCancel(ctx)
	results := c.flight.DoChan(key, func() (any, error) {
		value, err := load(shared)
		if err != nil {
			return nil, err
		}

		entry := cacheEntry{value: value, loadedAt: c.now()}

		c.mu.Lock()
		c.entries[key] = entry
		c.mu.Unlock()

		return entry, nil
	})

	select {
	case <-ctx.Done():
		return zero, time.Time{}, context.Cause(ctx)
	case result := <-results:
		if result.Err != nil {
			return zero, time.Time{}, result.Err
		}

		entry = result.Val.(cacheEntry) //nolint:forcetypeassert // see above

		return entry.value.(T), entry.loadedAt, nil //nolint:forcetypeassert // see above
	}
}

// invalidate drops every entry under key, e.g. after a write that changes it.
func (c *catalogue) invalidate(key string) {
	c.mu.Lock()
	delete(c.entries, key)
	c.mu.Unlock()
}

// forgetPlacement drops what the catalogue holds about a network and its region's
// flavors and images, so that the next look-up asks the cloud again.
func (c *catalogue) forgetPlacement(network *unikorn.Network) {
	c.invalidate(networkKey(network.Metadata.ID))
	c.invalidate(flavorsKey(network.Metadata.OrganizationID, network.Status.RegionID))
	c.invalidate(imagesKey(network.Metadata.OrganizationID, network.Status.RegionID))
}

func networkKey(id string) string {
	return "network/" + id
}

// network returns the network, as read at notBefore or later.
func (c *catalogue) network(ctx context.Context, id string, notBefore time.Time) (*unikorn.Network, error) {
	network, _, err := cached(ctx, c, networkKey(id), notBefore, func(ctx context.Context) (*unikorn.Network, error) {
		return c.client.GetNetwork(ctx, id)
	})

	return network, err
}

func flavorsKey(organizationID, regionID string) string {
	return "flavors/" + organizationID + "/" + regionID
}

func imagesKey(organizationID, regionID string) string {
	return "images/" + organizationID + "/" + regionID
}

// flavor returns the flavor with the given ID, or nil when the region has none.
func (c *catalogue) flavor(ctx context.Context, organizationID, regionID, id string) (*unikorn.Flavor, error) {
	return findFresh(ctx, c, flavorsKey(organizationID, regionID), id,
		func(ctx context.Context) ([]unikorn.Flavor, error) {
			return c.client.ListFlavors(ctx, organizationID, regionID)
		},
		func(f *unikorn.Flavor) string { return f.Metadata.ID })
}

// image returns the image with the given ID, or nil when none is visible. Images that
// are not ready are missing from the list compute uses, so a miss asks for the image
// itself to tell "not ready" from "unknown".
func (c *catalogue) image(ctx context.Context, organizationID, regionID, id string) (*unikorn.Image, error) {
	image, err := findFresh(ctx, c, imagesKey(organizationID, regionID), id,
		func(ctx context.Context) ([]unikorn.Image, error) {
			return c.client.ListImages(ctx, organizationID, regionID)
		},
		func(i *unikorn.Image) string { return i.Metadata.ID })
	if err != nil || image != nil {
		return image, err
	}

	image, err = c.client.GetImage(ctx, organizationID, regionID, id)
	if unikorn.IsNotFound(err) {
		return nil, nil
	}

	return image, err
}

// findFresh looks an item up in a cached list, reloading the list once on a miss.
func findFresh[T any](ctx context.Context, c *catalogue, key, id string, list func(context.Context) ([]T, error), idOf func(*T) string) (*T, error) {
	notBefore := time.Time{}

	for range 2 {
		items, loadedAt, err := cached(ctx, c, key, notBefore, list)
		if err != nil {
			return nil, err
		}

		for i := range items {
			if idOf(&items[i]) == id {
				return &items[i], nil
			}
		}

		notBefore = loadedAt.Add(time.Nanosecond)
	}

	return nil, nil
}
