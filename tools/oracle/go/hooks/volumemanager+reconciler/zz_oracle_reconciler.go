// Oracle hooks: NOT part of Kubernetes (scratch only). One pass of the real reconciler, on demand.

package reconciler

// OracleReconcile runs reconcile once.
func (rc *reconciler) OracleReconcile() {
	rc.reconcile()
}
