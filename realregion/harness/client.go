package harness

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/google/uuid"

	regionv1 "github.com/unikorn-cloud/region/pkg/apis/unikorn/v1alpha1"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/fake"
	"sigs.k8s.io/controller-runtime/pkg/client/interceptor"
)

// withStatus are the kinds whose CRDs (region's charts/region/crds) declare a status
// subresource: an update of the object leaves their status alone, and only an update
// of the status changes it.
var withStatus = []client.Object{
	&regionv1.Region{}, &regionv1.Identity{}, &regionv1.Network{}, &regionv1.SecurityGroup{},
	&regionv1.LoadBalancer{}, &regionv1.Server{}, &regionv1.FileStorage{}, &regionv1.FileStorageClass{},
	&regionv1.FileStorageProvisioner{}, &regionv1.Volume{},
}

// newClient is controller-runtime's fake client, with what the API server adds to it:
//
//   - a REST mapper that knows every kind of the scheme, as the API server's
//     discovery would (core's GenerateResourceReference asks it for region's kinds);
//   - on create, the UID and creation timestamp the API server sets, and generation 1;
//   - generations that count changes of an object's spec (and its deletion), which
//     is what the controllers' GenerationChangedPredicate watches for: such a change,
//     a create and a delete wake the kind's controller, a status update does not;
//   - foreground deletion: a delete that asks for it adds the foregroundDeletion
//     finalizer, as the API server does, for the garbage collector (gc.go) to remove.
func newClient(scheme *runtime.Scheme, queues *queues) (client.WithWatch, error) {
	mapper := meta.NewDefaultRESTMapper(nil)

	for gvk := range scheme.AllKnownTypes() {
		mapper.Add(gvk, meta.RESTScopeNamespace)
	}

	var funcs interceptor.Funcs

	funcs.Create = func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.CreateOption) error {
		if obj.GetUID() == "" {
			obj.SetUID(types.UID(uuid.NewString()))
		}

		obj.SetCreationTimestamp(metav1.NewTime(time.Now().Truncate(time.Second)))
		obj.SetGeneration(1)

		if err := c.Create(ctx, obj, opts...); err != nil {
			return err
		}

		queues.add(kindOf(scheme, obj), client.ObjectKeyFromObject(obj), 0)

		return nil
	}

	funcs.Update = func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.UpdateOption) error {
		old, err := current(ctx, c, scheme, obj)
		if err != nil {
			return c.Update(ctx, obj, opts...)
		}

		changed := specChanged(old, obj)
		if changed {
			obj.SetGeneration(old.GetGeneration() + 1)
		}

		if err := c.Update(ctx, obj, opts...); err != nil {
			return err
		}

		if changed {
			queues.add(kindOf(scheme, obj), client.ObjectKeyFromObject(obj), 0)
		}

		return nil
	}

	funcs.Patch = func(ctx context.Context, c client.WithWatch, obj client.Object, patch client.Patch, opts ...client.PatchOption) error {
		old, err := current(ctx, c, scheme, obj)
		if err != nil {
			return c.Patch(ctx, obj, patch, opts...)
		}

		if err := c.Patch(ctx, obj, patch, opts...); err != nil {
			return err
		}

		if !specChanged(old, obj) {
			return nil
		}

		// The API server counts the generation in the same write; here it takes a
		// second, which the caller's object reflects.
		obj.SetGeneration(old.GetGeneration() + 1)

		if err := c.Update(ctx, obj); err != nil {
			return err
		}

		queues.add(kindOf(scheme, obj), client.ObjectKeyFromObject(obj), 0)

		return nil
	}

	funcs.Delete = func(ctx context.Context, c client.WithWatch, obj client.Object, opts ...client.DeleteOption) error {
		var options client.DeleteOptions

		options.ApplyOptions(opts)

		if options.PropagationPolicy != nil && *options.PropagationPolicy == metav1.DeletePropagationForeground {
			if err := addForegroundFinalizer(ctx, c, scheme, obj); err != nil {
				return err
			}
		}

		if old, err := current(ctx, c, scheme, obj); err == nil && len(old.GetFinalizers()) > 0 && old.GetDeletionTimestamp() == nil {
			// Marking an object deleted is a change of generation.
			old.SetGeneration(old.GetGeneration() + 1)

			if err := c.Update(ctx, old); err != nil {
				return err
			}
		}

		if err := c.Delete(ctx, obj, opts...); err != nil {
			return err
		}

		queues.add(kindOf(scheme, obj), client.ObjectKeyFromObject(obj), 0)

		return nil
	}

	return interceptor.NewClient(fake.NewClientBuilder().
		WithScheme(scheme).
		WithRESTMapper(mapper).
		WithStatusSubresource(withStatus...).
		Build(), funcs), nil
}

// current reads the stored version of obj.
func current(ctx context.Context, c client.Client, scheme *runtime.Scheme, obj client.Object) (client.Object, error) {
	stored, err := scheme.New(gvkOf(scheme, obj))
	if err != nil {
		return nil, err
	}

	object, ok := stored.(client.Object)
	if !ok {
		return nil, fmt.Errorf("%T is no object", stored)
	}

	if err := c.Get(ctx, client.ObjectKeyFromObject(obj), object); err != nil {
		return nil, err
	}

	return object, nil
}

// addForegroundFinalizer marks obj for foreground deletion, as the API server does
// when a delete asks for it: the object stays, deleting, until the garbage collector
// has deleted every dependent that blocks its owner's deletion.
func addForegroundFinalizer(ctx context.Context, c client.Client, scheme *runtime.Scheme, obj client.Object) error {
	old, err := current(ctx, c, scheme, obj)
	if err != nil {
		return err
	}

	if slices.Contains(old.GetFinalizers(), metav1.FinalizerDeleteDependents) {
		return nil
	}

	old.SetFinalizers(append(old.GetFinalizers(), metav1.FinalizerDeleteDependents))

	return c.Update(ctx, old)
}

// specChanged reports whether the spec of two versions of an object differ: what
// makes the API server count a new generation.
func specChanged(old, updated client.Object) bool {
	oldSpec := reflect.ValueOf(old).Elem().FieldByName("Spec")
	newSpec := reflect.ValueOf(updated).Elem().FieldByName("Spec")

	if !oldSpec.IsValid() || !newSpec.IsValid() {
		return false
	}

	return !reflect.DeepEqual(oldSpec.Interface(), newSpec.Interface())
}

func gvkOf(scheme *runtime.Scheme, obj client.Object) (gvk schema.GroupVersionKind) {
	gvks, _, err := scheme.ObjectKinds(obj)
	if err != nil || len(gvks) == 0 {
		return gvk
	}

	return gvks[0]
}

func kindOf(scheme *runtime.Scheme, obj client.Object) string {
	return gvkOf(scheme, obj).Kind
}
