// Oracle hooks: NOT part of Kubernetes (ours; copied into the vendored package at build time).

package container

import (
	"time"

	"k8s.io/apimachinery/pkg/util/clock"
)

// NewOracleRuntimeCache is kubelet's runtime cache read on the given clock: the real one reads
// the wall clock (time.Now), which would make a golden depend on how fast the driver ran.
func NewOracleRuntimeCache(getter podsGetter, c clock.Clock) RuntimeCache {
	return &oracleRuntimeCache{runtimeCache: runtimeCache{getter: getter}, clock: c}
}

type oracleRuntimeCache struct {
	runtimeCache
	clock clock.Clock
}

func (r *oracleRuntimeCache) GetPods() ([]*Pod, error) {
	r.Lock()
	defer r.Unlock()
	if r.clock.Since(r.cacheTime) > defaultCachePeriod {
		if err := r.update(); err != nil {
			return nil, err
		}
	}
	return r.pods, nil
}

func (r *oracleRuntimeCache) ForceUpdateIfOlder(minExpectedCacheTime time.Time) error {
	r.Lock()
	defer r.Unlock()
	if r.cacheTime.Before(minExpectedCacheTime) {
		return r.update()
	}
	return nil
}

func (r *oracleRuntimeCache) update() error {
	timestamp := r.clock.Now()
	pods, err := r.getter.GetPods(false)
	if err != nil {
		return err
	}
	r.pods, r.cacheTime = pods, timestamp
	return nil
}
