package harness

import (
	"context"
	"slices"
	"time"

	regionv1 "github.com/unikorn-cloud/region/pkg/apis/unikorn/v1alpha1"

	kerrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"sigs.k8s.io/controller-runtime/pkg/client"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"
)

// collectorPeriod is how often the garbage collector looks again without an event,
// as its informers resync.
const collectorPeriod = time.Second

// owned are the kinds region links by owner references: a network and a (v1)
// security group are owned by their identity; a server, a load balancer and a (v2)
// security group by their network.
func owned() []client.ObjectList {
	return []client.ObjectList{
		&regionv1.IdentityList{}, &regionv1.NetworkList{}, &regionv1.SecurityGroupList{},
		&regionv1.LoadBalancerList{}, &regionv1.ServerList{},
	}
}

// collector is Kubernetes' garbage collector, for what region relies on it for
// (controller-runtime's fake client does not propagate deletions): an object whose
// owner is gone is deleted; an object whose owner is being deleted in the foreground
// is deleted in the foreground too; and an owner deleted in the foreground loses
// its foregroundDeletion finalizer once no dependent blocking its deletion is left.
type collector struct {
	client client.Client
}

// run collects on every event and every collectorPeriod until ctx ends.
func (c *collector) run(ctx context.Context, queues *queues) {
	ticker := time.NewTicker(collectorPeriod)
	defer ticker.Stop()

	for {
		select {
		case <-ctx.Done():
			return
		case <-queues.wakeup:
		case <-ticker.C:
		}

		if err := c.collect(ctx); err != nil && ctx.Err() == nil {
			ctrllog.FromContext(ctx).Info("garbage collection failed", "error", err.Error())
		}
	}
}

func (c *collector) collect(ctx context.Context) error {
	objects := map[types.UID]client.Object{}

	for _, list := range owned() {
		if err := c.client.List(ctx, list, client.InNamespace(Namespace)); err != nil {
			return err
		}

		items, err := meta.ExtractList(list)
		if err != nil {
			return err
		}

		for _, item := range items {
			if object, ok := item.(client.Object); ok {
				objects[object.GetUID()] = object
			}
		}
	}

	blocked := map[types.UID]bool{}

	for _, object := range objects {
		for _, reference := range object.GetOwnerReferences() {
			owner, exists := objects[reference.UID]

			switch {
			case !exists:
				// Every owner is gone (region sets one): the dependent goes too.
				if object.GetDeletionTimestamp() == nil {
					if err := c.delete(ctx, object, metav1.DeletePropagationBackground); err != nil {
						return err
					}
				}
			case owner.GetDeletionTimestamp() != nil && slices.Contains(owner.GetFinalizers(), metav1.FinalizerDeleteDependents):
				if reference.BlockOwnerDeletion != nil && *reference.BlockOwnerDeletion {
					blocked[owner.GetUID()] = true
				}

				if object.GetDeletionTimestamp() == nil {
					if err := c.delete(ctx, object, metav1.DeletePropagationForeground); err != nil {
						return err
					}
				}
			}
		}
	}

	for uid, object := range objects {
		if object.GetDeletionTimestamp() == nil || blocked[uid] || !slices.Contains(object.GetFinalizers(), metav1.FinalizerDeleteDependents) {
			continue
		}

		object.SetFinalizers(slices.DeleteFunc(object.GetFinalizers(), func(f string) bool { return f == metav1.FinalizerDeleteDependents }))

		if err := c.client.Update(ctx, object); err != nil && !kerrors.IsNotFound(err) && !kerrors.IsConflict(err) {
			return err
		}
	}

	return nil
}

func (c *collector) delete(ctx context.Context, object client.Object, policy metav1.DeletionPropagation) error {
	err := c.client.Delete(ctx, object, client.PropagationPolicy(policy))
	if kerrors.IsNotFound(err) || kerrors.IsConflict(err) {
		return nil
	}

	return err
}
