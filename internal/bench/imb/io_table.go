package imb

import "github.com/gomb-hpc/gomb/internal/kernel"

// ioTable is IMB-IO's benchmarks in its own order (IMB 2021 src_c/IMB_benchlist.c, all of them its
// default list), pure data: a benchmark's position here is its place in the list.
var ioTable = []*Spec{
	{
		Name:    "S_Write_Indv",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOPut, Pos: kernel.IOIndv, Priv: true, Single: true}},
		Family:  SingleTransfer,
		Modes:   true,
		Summary: "MPI_File_write: one process writes size bytes in a file of its own, individual pointer",
	},
	{
		Name:    "S_IWrite_Indv",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOPut, Pos: kernel.IOIndv, Priv: true, Single: true, Nonblocking: true}, AggregateOnly: true},
		Family:  SingleTransfer,
		Summary: "MPI_File_iwrite: one process writes size bytes in a file of its own, individual pointer; overlapped with IMB's CPU exploit",
	},
	{
		Name:    "S_Write_Expl",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOPut, Pos: kernel.IOExpl, Priv: true, Single: true}},
		Family:  SingleTransfer,
		Modes:   true,
		Summary: "MPI_File_write_at: one process writes size bytes in a file of its own, explicit offsets",
	},
	{
		Name:    "S_IWrite_Expl",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOPut, Pos: kernel.IOExpl, Priv: true, Single: true, Nonblocking: true}, AggregateOnly: true},
		Family:  SingleTransfer,
		Summary: "MPI_File_iwrite_at: one process writes size bytes in a file of its own, explicit offsets; overlapped with IMB's CPU exploit",
	},
	{
		Name:    "P_Write_Indv",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOPut, Pos: kernel.IOIndv}},
		Family:  ParallelTransfer,
		Modes:   true,
		Summary: "MPI_File_write: every process writes its share of size bytes, individual pointers through a view of its block",
	},
	{
		Name:    "P_IWrite_Indv",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOPut, Pos: kernel.IOIndv, Nonblocking: true}, AggregateOnly: true},
		Family:  ParallelTransfer,
		Summary: "MPI_File_iwrite: every process writes its share of size bytes, individual pointers through a view of its block; overlapped with IMB's CPU exploit",
	},
	{
		Name:    "P_Write_Shared",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOPut, Pos: kernel.IOShared}},
		Family:  ParallelTransfer,
		Modes:   true,
		Summary: "MPI_File_write_shared: every process writes its share of size bytes, the shared pointer",
	},
	{
		Name:    "P_IWrite_Shared",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOPut, Pos: kernel.IOShared, Nonblocking: true}, AggregateOnly: true},
		Family:  ParallelTransfer,
		Summary: "MPI_File_iwrite_shared: every process writes its share of size bytes, the shared pointer; overlapped with IMB's CPU exploit",
	},
	{
		Name:    "P_Write_Priv",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOPut, Pos: kernel.IOIndv, Priv: true}},
		Family:  ParallelTransfer,
		Modes:   true,
		Summary: "MPI_File_write: every process writes its share of size bytes, each process in a file of its own",
	},
	{
		Name:    "P_IWrite_Priv",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOPut, Pos: kernel.IOIndv, Priv: true, Nonblocking: true}, AggregateOnly: true},
		Family:  ParallelTransfer,
		Summary: "MPI_File_iwrite: every process writes its share of size bytes, each process in a file of its own; overlapped with IMB's CPU exploit",
	},
	{
		Name:    "P_Write_Expl",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOPut, Pos: kernel.IOExpl}},
		Family:  ParallelTransfer,
		Modes:   true,
		Summary: "MPI_File_write_at: every process writes its share of size bytes, explicit offsets",
	},
	{
		Name:    "P_IWrite_Expl",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOPut, Pos: kernel.IOExpl, Nonblocking: true}, AggregateOnly: true},
		Family:  ParallelTransfer,
		Summary: "MPI_File_iwrite_at: every process writes its share of size bytes, explicit offsets; overlapped with IMB's CPU exploit",
	},
	{
		Name:    "C_Write_Indv",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOPut, Pos: kernel.IOIndv, Collective: true}},
		Family:  Collective,
		Modes:   true,
		Summary: "MPI_File_write_all: every process writes its share of size bytes, collectively, individual pointers through a view of its block",
	},
	{
		Name:    "C_IWrite_Indv",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOPut, Pos: kernel.IOIndv, Collective: true, Nonblocking: true}, AggregateOnly: true},
		Family:  Collective,
		Summary: "MPI_File_write_all_begin/_end: every process writes its share of size bytes, collectively, individual pointers through a view of its block; overlapped with IMB's CPU exploit",
	},
	{
		Name:    "C_Write_Shared",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOPut, Pos: kernel.IOShared, Collective: true}},
		Family:  Collective,
		Modes:   true,
		Summary: "MPI_File_write_ordered: every process writes its share of size bytes, collectively, the shared pointer",
	},
	{
		Name:    "C_IWrite_Shared",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOPut, Pos: kernel.IOShared, Collective: true, Nonblocking: true}, AggregateOnly: true},
		Family:  Collective,
		Summary: "MPI_File_write_ordered_begin/_end: every process writes its share of size bytes, collectively, the shared pointer; overlapped with IMB's CPU exploit",
	},
	{
		Name:    "C_Write_Expl",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOPut, Pos: kernel.IOExpl, Collective: true}},
		Family:  Collective,
		Modes:   true,
		Summary: "MPI_File_write_at_all: every process writes its share of size bytes, collectively, explicit offsets",
	},
	{
		Name:    "C_IWrite_Expl",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOPut, Pos: kernel.IOExpl, Collective: true, Nonblocking: true}, AggregateOnly: true},
		Family:  Collective,
		Summary: "MPI_File_write_at_all_begin/_end: every process writes its share of size bytes, collectively, explicit offsets; overlapped with IMB's CPU exploit",
	},
	{
		Name:    "S_Read_Indv",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOGet, Pos: kernel.IOIndv, Priv: true, Single: true}, AggregateOnly: true},
		Family:  SingleTransfer,
		Summary: "MPI_File_read: one process reads size bytes in a file of its own, individual pointer",
	},
	{
		Name:    "S_IRead_Indv",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOGet, Pos: kernel.IOIndv, Priv: true, Single: true, Nonblocking: true}, AggregateOnly: true},
		Family:  SingleTransfer,
		Summary: "MPI_File_iread: one process reads size bytes in a file of its own, individual pointer; overlapped with IMB's CPU exploit",
	},
	{
		Name:    "S_Read_Expl",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOGet, Pos: kernel.IOExpl, Priv: true, Single: true}, AggregateOnly: true},
		Family:  SingleTransfer,
		Summary: "MPI_File_read_at: one process reads size bytes in a file of its own, explicit offsets",
	},
	{
		Name:    "S_IRead_Expl",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOGet, Pos: kernel.IOExpl, Priv: true, Single: true, Nonblocking: true}, AggregateOnly: true},
		Family:  SingleTransfer,
		Summary: "MPI_File_iread_at: one process reads size bytes in a file of its own, explicit offsets; overlapped with IMB's CPU exploit",
	},
	{
		Name:    "P_Read_Indv",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOGet, Pos: kernel.IOIndv}, AggregateOnly: true},
		Family:  ParallelTransfer,
		Summary: "MPI_File_read: every process reads its share of size bytes, individual pointers through a view of its block",
	},
	{
		Name:    "P_IRead_Indv",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOGet, Pos: kernel.IOIndv, Nonblocking: true}, AggregateOnly: true},
		Family:  ParallelTransfer,
		Summary: "MPI_File_iread: every process reads its share of size bytes, individual pointers through a view of its block; overlapped with IMB's CPU exploit",
	},
	{
		Name:    "P_Read_Shared",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOGet, Pos: kernel.IOShared}, AggregateOnly: true},
		Family:  ParallelTransfer,
		Summary: "MPI_File_read_shared: every process reads its share of size bytes, the shared pointer",
	},
	{
		Name:    "P_IRead_Shared",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOGet, Pos: kernel.IOShared, Nonblocking: true}, AggregateOnly: true},
		Family:  ParallelTransfer,
		Summary: "MPI_File_iread_shared: every process reads its share of size bytes, the shared pointer; overlapped with IMB's CPU exploit",
	},
	{
		Name:    "P_Read_Priv",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOGet, Pos: kernel.IOIndv, Priv: true}, AggregateOnly: true},
		Family:  ParallelTransfer,
		Summary: "MPI_File_read: every process reads its share of size bytes, each process in a file of its own",
	},
	{
		Name:    "P_IRead_Priv",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOGet, Pos: kernel.IOIndv, Priv: true, Nonblocking: true}, AggregateOnly: true},
		Family:  ParallelTransfer,
		Summary: "MPI_File_iread: every process reads its share of size bytes, each process in a file of its own; overlapped with IMB's CPU exploit",
	},
	{
		Name:    "P_Read_Expl",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOGet, Pos: kernel.IOExpl}, AggregateOnly: true},
		Family:  ParallelTransfer,
		Summary: "MPI_File_read_at: every process reads its share of size bytes, explicit offsets",
	},
	{
		Name:    "P_IRead_Expl",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOGet, Pos: kernel.IOExpl, Nonblocking: true}, AggregateOnly: true},
		Family:  ParallelTransfer,
		Summary: "MPI_File_iread_at: every process reads its share of size bytes, explicit offsets; overlapped with IMB's CPU exploit",
	},
	{
		Name:    "C_Read_Indv",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOGet, Pos: kernel.IOIndv, Collective: true}, AggregateOnly: true},
		Family:  Collective,
		Summary: "MPI_File_read_all: every process reads its share of size bytes, collectively, individual pointers through a view of its block",
	},
	{
		Name:    "C_IRead_Indv",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOGet, Pos: kernel.IOIndv, Collective: true, Nonblocking: true}, AggregateOnly: true},
		Family:  Collective,
		Summary: "MPI_File_read_all_begin/_end: every process reads its share of size bytes, collectively, individual pointers through a view of its block; overlapped with IMB's CPU exploit",
	},
	{
		Name:    "C_Read_Shared",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOGet, Pos: kernel.IOShared, Collective: true}, AggregateOnly: true},
		Family:  Collective,
		Summary: "MPI_File_read_ordered: every process reads its share of size bytes, collectively, the shared pointer",
	},
	{
		Name:    "C_IRead_Shared",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOGet, Pos: kernel.IOShared, Collective: true, Nonblocking: true}, AggregateOnly: true},
		Family:  Collective,
		Summary: "MPI_File_read_ordered_begin/_end: every process reads its share of size bytes, collectively, the shared pointer; overlapped with IMB's CPU exploit",
	},
	{
		Name:    "C_Read_Expl",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOGet, Pos: kernel.IOExpl, Collective: true}, AggregateOnly: true},
		Family:  Collective,
		Summary: "MPI_File_read_at_all: every process reads its share of size bytes, collectively, explicit offsets",
	},
	{
		Name:    "C_IRead_Expl",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IOGet, Pos: kernel.IOExpl, Collective: true, Nonblocking: true}, AggregateOnly: true},
		Family:  Collective,
		Summary: "MPI_File_read_at_all_begin/_end: every process reads its share of size bytes, collectively, explicit offsets; overlapped with IMB's CPU exploit",
	},
	{
		Name:    "Open_Close",
		IOPart:  IOPart{IO: kernel.IO{Access: kernel.IONone}},
		Family:  Sync,
		NonAggr: true, // IMB counts its repetitions from -iter's msgs_nonaggr
		Summary: "MPI_File_open, a one-byte MPI_File_write, MPI_File_close, over all processes",
	},
}

func init() { registerTable(ioTable, registerIO) }
