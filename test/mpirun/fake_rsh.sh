#!/bin/sh
# fake_rsh.sh HOST COMMAND... - mpirun's remote shell for a second node that
# is this machine: the daemon mpirun starts "on HOST" runs here, with its
# own PMIx server, so two servers of drover's library work together.
shift
exec /bin/sh -c "$*"
