package harness

import (
	"context"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/types"

	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"
)

// Backoff of a reconcile that failed, as controller-runtime's default rate limiter
// starts it (5 ms, doubling per failure of the same object), capped lower than its
// 1000 s so that a test never waits on it for long.
const (
	firstBackoff = 5 * time.Millisecond
	maxBackoff   = 10 * time.Second
)

// queues are the controllers' work queues, one per kind: an object is queued when a
// watch event would queue it (client.go) and when its reconcile asks to be requeued,
// once however often it is added, at the earliest time asked for. Each kind's
// controller reconciles one object at a time, as a controller with
// --max-concurrency=1 does; the kinds run beside each other, as region's
// controllers are processes of their own.
type queues struct {
	mu     sync.Mutex
	kinds  map[string]*queue
	wakeup chan struct{}
}

type queue struct {
	due      map[types.NamespacedName]time.Time
	failures map[types.NamespacedName]int
	wake     chan struct{}
}

func newQueues() *queues {
	return &queues{kinds: map[string]*queue{}, wakeup: make(chan struct{}, 1)}
}

func (q *queues) kind(name string) *queue {
	k, ok := q.kinds[name]
	if !ok {
		k = &queue{due: map[types.NamespacedName]time.Time{}, failures: map[types.NamespacedName]int{}, wake: make(chan struct{}, 1)}
		q.kinds[name] = k
	}

	return k
}

// add queues an object of a kind after a delay. Every event also wakes the garbage
// collector, as its informers see every change.
func (q *queues) add(kind string, key types.NamespacedName, after time.Duration) {
	q.mu.Lock()
	defer q.mu.Unlock()

	k := q.kind(kind)
	at := time.Now().Add(after)

	if due, ok := k.due[key]; !ok || at.Before(due) {
		k.due[key] = at
	}

	notify(k.wake)
	notify(q.wakeup)
}

func notify(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// next takes the object of kind due first, or says how long until one is.
func (q *queues) next(kind string) (types.NamespacedName, bool, time.Duration, chan struct{}) {
	q.mu.Lock()
	defer q.mu.Unlock()

	k := q.kind(kind)
	now := time.Now()

	var (
		first types.NamespacedName
		at    time.Time
		found bool
	)

	for key, due := range k.due {
		if !found || due.Before(at) {
			first, at, found = key, due, true
		}
	}

	if !found {
		return first, false, time.Hour, k.wake
	}

	if wait := at.Sub(now); wait > 0 {
		return first, false, wait, k.wake
	}

	delete(k.due, first)

	return first, true, 0, k.wake
}

// done records a reconcile's outcome: a failure is retried with backoff, a requeue
// after its delay.
func (q *queues) done(kind string, key types.NamespacedName, result reconcile.Result, err error) {
	q.mu.Lock()
	k := q.kind(kind)

	var after time.Duration

	requeue := true

	switch {
	case err != nil:
		after = firstBackoff << min(k.failures[key], 20)
		after = min(after, maxBackoff)
		k.failures[key]++
	case result.RequeueAfter > 0:
		after = result.RequeueAfter

		delete(k.failures, key)
	default:
		requeue = false

		delete(k.failures, key)
	}

	q.mu.Unlock()

	if requeue {
		q.add(kind, key, after)
	}
}

// run is one controller's worker: it reconciles the objects of kind as they fall due
// until ctx ends.
func (q *queues) run(ctx context.Context, kind string, r reconcile.Reconciler) {
	log := ctrllog.FromContext(ctx).WithValues("controller", kind)

	for {
		key, ok, wait, wake := q.next(kind)
		if !ok {
			timer := time.NewTimer(wait)

			select {
			case <-ctx.Done():
				timer.Stop()

				return
			case <-wake:
			case <-timer.C:
			}

			timer.Stop()

			continue
		}

		result, err := r.Reconcile(ctrllog.IntoContext(ctx, log.WithValues("object", key.Name)), reconcile.Request{NamespacedName: key})
		if err != nil {
			log.Info("reconcile failed", "object", key.Name, "error", err.Error())
		}

		if ctx.Err() != nil {
			return
		}

		q.done(kind, key, result, err)
	}
}
