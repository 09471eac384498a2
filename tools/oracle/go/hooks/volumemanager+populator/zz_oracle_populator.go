// Oracle hooks: NOT part of Kubernetes (scratch only). One loop of the real populator, on demand.

package populator

// OracleLoop runs populatorLoop once.
func (dswp *desiredStateOfWorldPopulator) OracleLoop() {
	dswp.populatorLoop()
}
