/*
 * torus_layout.c — where a torus position sits and whom it links to: positions fill a node's
 * sub-block (node_shape), the nodes a block, the blocks the torus, each level along x, then y,
 * then z; a twisted torus's wraparound; the diameter by search; and the closed form of blocks
 * joined by optical circuit switches (TPU v4: Jouppi et al., ISCA 2023, §2). torus.c sizes and
 * wires the torus with these; docs/fabrics.md §4 and §6 give the rules.
 */
#include "fabric.h"

#include <stdlib.h>

/* Where torus position i sits: positions fill a node's sub-block first (node_shape), then the
 * next node's in the block (along the first dimension, then the second, then the third), then
 * the next block in the same order; each level counts x first. Without a block the block is
 * the whole torus, and with one position per node position i sits at (i mod X, i / X mod Y,
 * i / XY). */
void torus_layout_coord(const FabricInst *f, int i, int c[3])
{
	const int *B = f->block, *N = f->node_shape;
	int bp = B[0] * B[1] * B[2], np = N[0] * N[1] * N[2];
	int b = i / bp, l = i % bp, nb = l / np, q = l % np;
	int nb0 = f->dims[0] / B[0], nb1 = f->dims[1] / B[1];
	int nn0 = B[0] / N[0], nn1 = B[1] / N[1];
	int bc[3] = {b % nb0, b / nb0 % nb1, b / (nb0 * nb1)};
	int nc[3] = {nb % nn0, nb / nn0 % nn1, nb / (nn0 * nn1)};
	int lc[3] = {q % N[0], q / N[0] % N[1], q / (N[0] * N[1])};
	for (int k = 0; k < 3; k++)
		c[k] = bc[k] * B[k] + nc[k] * N[k] + lc[k];
}

/* The block of coordinates c, in block order. */
int torus_layout_block(const FabricInst *f, const int c[3])
{
	int nb0 = f->dims[0] / f->block[0], nb1 = f->dims[1] / f->block[1];
	return c[0] / f->block[0] + nb0 * (c[1] / f->block[1] + nb1 * (c[2] / f->block[2]));
}

/* The position at coordinates c (the inverse of torus_layout_coord). */
int torus_layout_pos(const FabricInst *f, const int c[3])
{
	const int *B = f->block, *N = f->node_shape;
	int bp = B[0] * B[1] * B[2], np = N[0] * N[1] * N[2];
	int nn0 = B[0] / N[0], nn1 = B[1] / N[1];
	int l[3] = {c[0] % B[0], c[1] % B[1], c[2] % B[2]};
	int nb = l[0] / N[0] + nn0 * (l[1] / N[1] + nn1 * (l[2] / N[2]));
	int q = l[0] % N[0] + N[0] * (l[1] % N[1] + N[1] * (l[2] % N[2]));
	return torus_layout_block(f, c) * bp + nb * np + q;
}

/* Links of a block's face in dimension k: the positions of a block's cross-section, Π_{j≠k} B_j. */
int torus_layout_face_links(const FabricInst *f, int k)
{
	int n = 1;
	for (int j = 0; j < f->ndims; j++)
		if (j != k)
			n *= f->block[j];
	return n;
}

/* The + neighbour of c in dimension k. A twisted torus (Camarero, Martínez, Beivide, "Lattice
 * graphs for high-scale interconnection topologies", IEEE TPDS 2015; the twisted tori of TPU
 * v4, Jouppi et al., ISCA 2023, §2): dimensions of two sizes n and 2n, and the wraparound link
 * of a dimension of size n lands n further along every dimension of size 2n. */
void torus_layout_next(const FabricInst *f, const int c[3], int k, int nc[3])
{
	for (int j = 0; j < 3; j++)
		nc[j] = c[j];
	nc[k] = (c[k] + 1) % f->dims[k];
	if (!f->twisted || c[k] != f->dims[k] - 1)
		return;
	int small = f->dims[0];
	for (int j = 1; j < f->ndims; j++)
		if (f->dims[j] < small)
			small = f->dims[j];
	if (f->dims[k] != small)
		return;
	for (int j = 0; j < f->ndims; j++)
		if (f->dims[j] == 2 * small)
			nc[j] = (nc[j] + small) % f->dims[j];
}

/* The longest shortest path between positions, by breadth-first search from position 0 (a
 * torus, twisted or not, is vertex-transitive, so one source gives the diameter). Each
 * position's + neighbours are its out-links; every position has one in-link per dimension, so
 * the − neighbours are the same links backwards. Only for twisted tori: a plain torus has the
 * closed form Σ ⌊D_i / 2⌋. */
int torus_layout_diameter(const FabricInst *f, int positions)
{
	int deg = 2 * f->ndims;
	int *adj = xmalloc(sizeof(int) * (size_t)positions * (size_t)deg);
	int *dist = xmalloc(sizeof(int) * (size_t)positions);
	int *queue = xmalloc(sizeof(int) * (size_t)positions);
	for (int i = 0; i < positions; i++) {
		int c[3], nc[3];
		torus_layout_coord(f, i, c);
		for (int k = 0; k < f->ndims; k++) {
			torus_layout_next(f, c, k, nc);
			int m = torus_layout_pos(f, nc);
			adj[(size_t)i * deg + 2 * k] = m;
			adj[(size_t)m * deg + 2 * k + 1] = i;
		}
		dist[i] = -1;
	}
	int head = 0, tail = 0, far = 0;
	dist[0] = 0;
	queue[tail++] = 0;
	while (head < tail) {
		int i = queue[head++];
		for (int e = 0; e < deg; e++) {
			int m = adj[(size_t)i * deg + e];
			if (dist[m] >= 0)
				continue;
			dist[m] = dist[i] + 1;
			far = dist[m] > far ? dist[m] : far;
			queue[tail++] = m;
		}
	}
	free(adj);
	free(dist);
	free(queue);
	return far;
}

/* The counts of a torus whose blocks' faces meet at optical circuit switches (TPU v4: Jouppi et
 * al., "TPU v4: An Optically Reconfigurable Supercomputer for Machine Learning with Hardware
 * Support for Embeddings", ISCA 2023, §2.1-2.2). With C blocks of B_0 x B_1 x B_2 positions, a
 * block's face in dimension k has F_k = Π_{j≠k} B_j links; one OCS joins the + and − faces of
 * every block at one (dimension, face position), so
 *     OCSes = Σ_k F_k, ports wired per OCS = 2C, fibres = 2C Σ_k F_k,
 * and the links inside blocks, direct cables, are Σ_k C (B_k − 1) F_k. TPU v4's 4,096 chips in
 * 64 cubes of 4 x 4 x 4: 3 x 16 = 48 OCSes of 128 ports wired, 6,144 fibres (6 faces x 16 links
 * per cube), 9,216 electrical links. The unit test checks it (tests/unit/test_fabric.c). */
void torus_layout_ocs_counts(const int dims[3], const int block[3], int ndims, int *ocs, int *ports,
		      int *fibres, int *electrical)
{
	int blocks = 1;
	for (int k = 0; k < ndims; k++)
		blocks *= dims[k] / block[k];
	int faces = 0, inside = 0;
	for (int k = 0; k < ndims; k++) {
		int fk = 1;
		for (int j = 0; j < ndims; j++)
			if (j != k)
				fk *= block[j];
		faces += fk;
		inside += blocks * (block[k] - 1) * fk;
	}
	*ocs = faces;
	*ports = 2 * blocks;
	*fibres = 2 * blocks * faces;
	*electrical = inside;
}
