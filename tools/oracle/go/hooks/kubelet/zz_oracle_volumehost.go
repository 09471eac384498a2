// Oracle hooks: NOT part of Kubernetes (scratch only). kubelet's own volume plugin manager (its
// kubeletVolumeHost, the plugins the port has) over a Kubelet that holds only what the host
// asks of it: the kube client, a root directory, a mounter that mounts nothing.

package kubelet

import (
	v1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"
	clientset "k8s.io/client-go/kubernetes"
	"k8s.io/kubernetes/pkg/kubelet/configmap"
	"k8s.io/kubernetes/pkg/kubelet/secret"
	"k8s.io/kubernetes/pkg/kubelet/token"
	"k8s.io/kubernetes/pkg/volume"
	volumeconfigmap "k8s.io/kubernetes/pkg/volume/configmap"
	"k8s.io/kubernetes/pkg/volume/emptydir"
	"k8s.io/kubernetes/pkg/volume/hostpath"
	"k8s.io/kubernetes/pkg/volume/projected"
	volumesecret "k8s.io/kubernetes/pkg/volume/secret"
	"k8s.io/kubernetes/pkg/volume/util/hostutil"
	"k8s.io/kubernetes/pkg/volume/util/subpath"
	"k8s.io/mount-utils"
)

// NewOracleVolumePluginMgr returns the plugin manager kubelet makes in NewMainKubelet, with the
// five plugins the port has, in the order of cmd/kubelet/app/plugins.go.
func NewOracleVolumePluginMgr(kubeClient clientset.Interface, rootDir string,
	configMapManager configmap.Manager, secretManager secret.Manager) (*volume.VolumePluginMgr, mount.Interface, hostutil.HostUtils, error) {
	mounter := mount.NewFakeMounter(nil)
	hu := hostutil.NewHostUtil()
	kl := &Kubelet{
		kubeClient:    kubeClient,
		rootDirectory: rootDir,
		mounter:       mounter,
		hostutil:      hu,
		subpather:     subpath.New(mounter),
		nodeName:      "node",
		hostname:      "node",
		nodeLister:    oracleNodeLister{},
	}
	var plugins []volume.VolumePlugin
	plugins = append(plugins, emptydir.ProbeVolumePlugins()...)
	plugins = append(plugins, hostpath.ProbeVolumePlugins(volume.VolumeConfig{})...)
	plugins = append(plugins, volumesecret.ProbeVolumePlugins()...)
	plugins = append(plugins, volumeconfigmap.ProbeVolumePlugins()...)
	plugins = append(plugins, projected.ProbeVolumePlugins()...)
	mgr, err := NewInitializedVolumePluginMgr(kl, secretManager, configMapManager, token.NewManager(kubeClient), plugins, nil)
	// The wrapped mounters (a configMap's emptyDir) are found through the Kubelet's own manager.
	kl.volumePluginMgr = mgr
	return mgr, mounter, hu, err
}

// oracleNodeLister knows one node, with the port's default allocatable memory (a memory-backed
// emptyDir asks for it to size its tmpfs).
type oracleNodeLister struct{}

func (oracleNodeLister) node() *v1.Node {
	n := &v1.Node{}
	n.Name = "node"
	n.Status.Allocatable = v1.ResourceList{v1.ResourceMemory: resource.MustParse("8Gi")}
	return n
}

func (l oracleNodeLister) List(labels.Selector) ([]*v1.Node, error) { return []*v1.Node{l.node()}, nil }
func (l oracleNodeLister) Get(string) (*v1.Node, error)             { return l.node(), nil }
