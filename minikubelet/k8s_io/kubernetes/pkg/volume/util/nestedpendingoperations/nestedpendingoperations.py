"""At most one operation per volume (and pod) at a time, and back-off after a failure.

Go: pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go

The reconciler asks for the same mount every 100 ms; this is what turns those asks into one
running operation (the others get ``AlreadyExists``) and, after a failure, into retries 0.5 s,
1 s, 2 s … apart (the others get an exponential back-off error). Both errors are expected, and
the reconciler does not log them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from minikubelet.go import fmt as go_fmt
from minikubelet.go import go
from minikubelet.k8s_io.klog.v2 import klog
from minikubelet.k8s_io.kubernetes.pkg.util.goroutinemap.exponentialbackoff.exponential_backoff import (
    ExponentialBackoff,
)
from minikubelet.k8s_io.kubernetes.pkg.volume.util.types.types import (
    GeneratedOperations,
)

#: Go: EmptyUniquePodName
EmptyUniquePodName = ""
#: Go: EmptyUniqueVolumeName
EmptyUniqueVolumeName = ""
#: Go: EmptyNodeName
EmptyNodeName = ""


@dataclass(frozen=True)
class OperationKey:
    """Go: pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go type operationKey"""

    volume_name: str
    pod_name: str
    node_name: str

    def go_fields(self) -> list[tuple[str, str]]:
        """Go's (unexported) field names, for ``%+v`` (see [`minikubelet.go.fmt`][minikubelet.go.fmt])."""
        return [
            ("volumeName", self.volume_name),
            ("podName", self.pod_name),
            ("nodeName", self.node_name),
        ]


@dataclass
class Operation:
    """Go: pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go type operation"""

    key: OperationKey
    operation_name: str
    operation_pending: bool
    exp_backoff: ExponentialBackoff = field(default_factory=ExponentialBackoff)


class AlreadyExistsError(Exception):
    """Go: pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go type alreadyExistsError"""

    def __init__(self, key: OperationKey) -> None:
        super().__init__(
            go_fmt.sprintf(
                "Failed to create operation with name %+v. An operation with that name is "
                "already executing.",
                key,
            )
        )


def is_already_exists(err: BaseException | None) -> bool:
    """Go: pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go IsAlreadyExists"""
    match err:
        # Go: case alreadyExistsError:
        case AlreadyExistsError():
            return True
        # Go: default:
        case _:
            return False


class NestedPendingOperations:
    """Go: pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go type nestedPendingOperations"""

    def __init__(self, exponential_back_off_on_error: bool = True) -> None:
        self.operations: list[Operation] = []
        self.exponential_back_off_on_error = exponential_back_off_on_error

    def run(
        self,
        volume_name: str,
        pod_name: str,
        node_name: str,
        generated_operations: GeneratedOperations,
    ) -> Exception | None:
        """Start the operation in its own goroutine, or say why not (Go returns the error).

        Go: pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go (*nestedPendingOperations).Run
        """
        # One event loop runs the port's goroutines, so no lock guards the operations.
        # Go: grm.lock.Lock()
        op_key = OperationKey(volume_name, pod_name, node_name)
        op_exists, previous_op_index = self.is_operation_exists(op_key)
        if op_exists:
            previous_op = self.operations[previous_op_index]
            if previous_op.operation_pending:
                return AlreadyExistsError(op_key)
            back_off_err = previous_op.exp_backoff.safe_to_retry(go_fmt.sprintf("%+v", op_key))
            if back_off_err is not None:
                if previous_op.operation_name == generated_operations.operation_name:
                    return back_off_err
                # Another kind of operation on the same key starts with no back-off.
                previous_op.operation_name = generated_operations.operation_name
                previous_op.exp_backoff = ExponentialBackoff()
            previous_op.operation_pending = True
            previous_op.key = op_key
        else:
            self.operations.append(
                Operation(op_key, generated_operations.operation_name, operation_pending=True)
            )

        # Go: go func() (eventErr, detailedErr error) {
        async def operation() -> None:
            _, detailed_err = await generated_operations.run()
            self.operation_complete(op_key, detailed_err)

        go(operation, name=generated_operations.operation_name)
        return None

    def is_operation_pending(self, volume_name: str, pod_name: str, node_name: str) -> bool:
        """Go: pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go (*nestedPendingOperations).IsOperationPending"""
        exist, index = self.is_operation_exists(OperationKey(volume_name, pod_name, node_name))
        return exist and self.operations[index].operation_pending

    def is_operation_exists(self, key: OperationKey) -> tuple[bool, int]:
        """An empty pod or node name in either key matches any.

        Go: pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go (*nestedPendingOperations).isOperationExists
        """
        if key.volume_name == EmptyUniqueVolumeName:
            return False, -1
        for index, previous_op in enumerate(self.operations):
            volume_name_match = previous_op.key.volume_name == key.volume_name
            pod_name_match = (
                previous_op.key.pod_name == EmptyUniquePodName
                or key.pod_name == EmptyUniquePodName
                or previous_op.key.pod_name == key.pod_name
            )
            node_name_match = (
                previous_op.key.node_name == EmptyNodeName
                or key.node_name == EmptyNodeName
                or previous_op.key.node_name == key.node_name
            )
            if volume_name_match and pod_name_match and node_name_match:
                return True, index
        return False, -1

    def operation_complete(self, key: OperationKey, err: BaseException | None) -> None:
        """Forget a finished operation; after a failure keep it, with its back-off grown.

        Go: pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go (*nestedPendingOperations).operationComplete
        """
        if err is None or not self.exponential_back_off_on_error:
            self.delete_operation(key)
            if err is not None:
                klog.errorf("operation %+v failed with: %v", key, err)
            return
        index, get_op_err = self.get_operation(key)
        if get_op_err is not None:
            klog.errorf(
                "Operation %s completed. error: %s. exponentialBackOffOnError is enabled, but "
                "failed to get operation to update.",
                key,
                err,
            )
            return
        op = self.operations[index]
        op.exp_backoff.update(err)
        op.operation_pending = False
        klog.errorf(
            "%v", op.exp_backoff.generate_no_retries_permitted_msg(go_fmt.sprintf("%+v", key))
        )

    def get_operation(self, key: OperationKey) -> tuple[int, Exception | None]:
        """Go: pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go (*nestedPendingOperations).getOperation"""
        for index, op in enumerate(self.operations):
            if op.key == key:
                return index, None
        return 0, Exception(f"operation {key} not found")

    def delete_operation(self, key: OperationKey) -> None:
        """Go: pkg/volume/util/nestedpendingoperations/nestedpendingoperations.go (*nestedPendingOperations).deleteOperation"""
        self.operations = [op for op in self.operations if op.key != key]
