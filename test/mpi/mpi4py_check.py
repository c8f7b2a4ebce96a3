"""mpi4py under drover run: rank and size, collectives on Python objects
and buffers, point-to-point round a ring, and two processes spawned from
the interpreter (the script again, which sees its parent). Prints one PASS
line on rank 0; exits non-zero on any rank where a check fails."""
import sys

from mpi4py import MPI

comm = MPI.COMM_WORLD
rank, size = comm.Get_rank(), comm.Get_size()
parent = MPI.Comm.Get_parent()
if parent != MPI.COMM_NULL:
    parent.reduce(rank + 10, op=MPI.SUM, root=0)
    parent.Disconnect()
    sys.exit(0)
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print(f"not ok - rank {rank}: {what}", flush=True)


check(comm.allreduce(rank + 1) == size * (size + 1) // 2, "allreduce")
data = comm.bcast({"from": 0, "items": list(range(10))} if rank == 0 else None, root=0)
check(data == {"from": 0, "items": list(range(10))}, "bcast of a dict")
check(comm.allgather(rank) == list(range(size)), "allgather")
token = comm.sendrecv(rank, dest=(rank + 1) % size, source=(rank - 1) % size)
check(token == (rank - 1) % size, "sendrecv round the ring")
check(MPI.Get_library_version().startswith("Open MPI"), "Open MPI underneath")
buf = bytearray(8)
if rank == 0:
    buf[:] = b"drover!!"
comm.Bcast(buf, root=0)
check(bytes(buf) == b"drover!!", "buffer bcast")

children = comm.Spawn(sys.executable, args=[__file__], maxprocs=2)
total = children.reduce(None, op=MPI.SUM, root=MPI.ROOT if rank == 0 else MPI.PROC_NULL)
check(rank != 0 or total == 21, f"the spawned processes' sum: {total}")
children.Disconnect()

bad = comm.allreduce(len(failures))
if rank == 0 and bad == 0:
    print(f"PASS mpi4py on {size} ranks", flush=True)
sys.exit(1 if bad else 0)
