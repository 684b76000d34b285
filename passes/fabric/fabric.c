/*
 * fabric.c — sizing the network fabrics: what every topology family shares (ir.h:
 * TopologyFamily). For each fabric of the cluster: its switch at the link speed (ports split
 * by breakout), the NIC ports its nodes bring (rails, split over planes), the extra devices it
 * attaches, then its family's shape (fat_tree.c, dragonfly.c, torus.c), which counts switches
 * and links per tier and gives the metrics; `planes = auto` takes the fewest planes whose shape
 * fits; then the scale-up domains (scale_up.c). Port-level wiring is wire.c's; sizing only
 * counts, so it runs for every candidate design the choice search explores.
 *
 * A fabric that cannot be built as declared (switch radix, link speed against port speed,
 * breakout, more endpoints than the shape holds) is a requirement the design does not meet:
 * a Violation at the fabric with the numbers and, where one exists, the smallest change. For
 * the design reported (not while choices are explored) that change is found by sizing the
 * shape again on a copy with more planes, a larger radix or (fat trees) more tiers.
 */
#include "fabric.h"

#include <math.h>
#include <string.h>

/* The NICs of a node or a storage appliance. */
static const PartCount *nics_of(const Part *dev, int *n)
{
	*n = dev->kind == KIND_NODE ? dev->node.nnics : dev->kind == KIND_STORAGE ? dev->storage.nnics : 0;
	return dev->kind == KIND_NODE ? dev->node.nics : dev->storage.nics;
}

/* NIC ports of one device on this fabric: every NIC of the fabric's model. */
static int node_rails(const Part *dev, const Part *nic)
{
	int k;
	const PartCount *nics = nics_of(dev, &k);
	double n = 0;
	for (int i = 0; i < k; i++)
		if (nics[i].part == nic)
			n += (double)nics[i].count * nic->nic.ports;
	return shape_count(n);
}

static const Part *first_nic(const Part *dev)
{
	if (!dev)
		return NULL;
	int k;
	const PartCount *nics = nics_of(dev, &k);
	return k ? nics[0].part : NULL;
}

/* Tier t's switch m at links of `speed`: its radix and breakout into f->tier_*; false after a
 * Violation at `at` when the links are faster than its ports, not a whole fraction of one, or
 * need more lanes than its breakout, or when the radix is past FABRIC_RADIX_MAX. */
static bool switch_at(Design *d, const FabricInst *f, const char *what, const Part *m, double speed,
		      Loc at, int *lanes)
{
	const Decl *fd = f->decl;
	double port_speed = m->sw.port_speed;
	int ports = m->sw.ports, max_breakout = m->sw.breakout;
	double ratio = port_speed / speed;
	int b = (int)llround(ratio);
	if (speed > port_speed * (1 + 1e-9) || fabs(ratio - b) > 1e-9 || b > max_breakout) {
		const char *why = speed > port_speed ? "faster than its ports"
				  : fabs(ratio - b) > 1e-9 ? "not a whole fraction of a port"
							    : "more lanes than its breakout allows";
		/* The speeds a port can be split into: port_speed / 1 .. port_speed / breakout. */
		Buf can = {0};
		for (int i = 1; i <= max_breakout; i++)
			buf_printf(&can, "%s%s", i == 1 ? "" : i == max_breakout ? " or " : ", ",
				   shape_gbps(d, port_speed / i));
		design_violation(d, at, 1, m->loc, "the switch is declared here",
				 "%s'%s' ports are %s and split at most %d ways, so links can be %s; links "
				 "of %s are %s",
				 what, m->name, shape_gbps(d, port_speed), max_breakout, can.s,
				 shape_gbps(d, speed), why);
		buf_free(&can);
		return false;
	}
	if ((double)ports * b > FABRIC_RADIX_MAX) {
		design_violation(d, m->loc, (double)ports * b / FABRIC_RADIX_MAX - 1, fd->name_loc,
				 "the fabric is declared here",
				 "'%s' would have %.0f ports at %s; clusterc sizes switches of up to %d",
				 m->name, field_num(m->decl, FLD_SWITCH_PORTS) * b, shape_gbps(d, speed),
				 FABRIC_RADIX_MAX);
		return false;
	}
	*lanes = b;
	return true;
}

static bool tier_at(Design *d, FabricInst *f, int t, const Part *m, double speed, Loc at)
{
	static const char *const what[] = {"", "spine ", "core "};
	int b;
	if (!switch_at(d, f, what[t], m, speed, at, &b))
		return false;
	f->tier_model[t] = m;
	f->tier_speed[t] = speed;
	f->tier_breakout[t] = b;
	f->tier_radix[t] = m->sw.ports * b;
	return true;
}

/* The location of a field when set, else of the fabric's name. */
static Loc at_field(const Decl *fd, FieldId id)
{
	const Value *v = field_value(fd, id);
	return v ? v->loc : fd->name_loc;
}

/* A tree's spine and core tiers: their switch (spine_switch, core_switch; default the tier
 * below's) at their link speed (spine_link, core_link; default the tier below's). A topology
 * that is not a tree has one switch tier: those fields are an error there, not ignored. */
static bool upper_tiers(Design *d, FabricInst *f)
{
	const Decl *fd = f->decl;
	static const FieldId sw_f[] = {FLD_FABRIC_SPINE_SWITCH, FLD_FABRIC_CORE_SWITCH};
	static const FieldId ln_f[] = {FLD_FABRIC_SPINE_LINK, FLD_FABRIC_CORE_LINK};
	static const FieldId tree_only[] = {FLD_FABRIC_SPINE_SWITCH, FLD_FABRIC_CORE_SWITCH,
					    FLD_FABRIC_SPINE_LINK, FLD_FABRIC_CORE_LINK,
					    FLD_FABRIC_POD_LEAVES, FLD_FABRIC_POD_GPUS,
					    FLD_FABRIC_RACKS_PER_LEAF,
					    FLD_FABRIC_BACKUP_PORTS_PER_TOR};
	if (!f->family->tree) {
		for (size_t i = 0; i < sizeof tree_only / sizeof *tree_only; i++) {
			const Value *v = field_value(fd, tree_only[i]);
			if (v) {
				design_violation(d, v->loc, 1, fd->name_loc, NULL,
						 "'%s' is a fat tree's; a %s has no tiers of leaves, spines "
						 "and cores",
						 field_schemas[tree_only[i]].name, f->family->name);
				return false;
			}
		}
		if (field_enum(fd, FLD_FABRIC_LEAF_PLACEMENT) == LEAF_SERVER_RACK) {
			design_violation(d, at_field(fd, FLD_FABRIC_LEAF_PLACEMENT), 1, fd->name_loc, NULL,
					 "leaf_placement = server_rack is a fat tree's; a %s has no leaves",
					 f->family->name);
			return false;
		}
		return true;
	}
	for (int t = 1; t < 3; t++) {
		const Value *sv = field_value(fd, sw_f[t - 1]);
		const Part *m = sv && sv->kind == VAL_REF ? parts_of(d, sv->ref) : f->tier_model[t - 1];
		double speed;
		if (!field_num_set(fd, ln_f[t - 1], &speed))
			speed = f->tier_speed[t - 1];
		const Value *lv = field_value(fd, ln_f[t - 1]);
		Loc at = lv ? lv->loc : sv ? sv->loc : fd->name_loc;
		if (!tier_at(d, f, t, m, speed, at))
			return false;
		/* The tier below runs its up links at this tier's speed. */
		static const char *const below[] = {"", "the leaf switch ", "the spine switch "};
		if (!switch_at(d, f, below[t], f->tier_model[t - 1], speed, at, &f->tier_up_breakout[t - 1]))
			return false;
	}
	return true;
}

/* One fabric: its switch at the link speed, its NIC ports, then its shape. */
static void size_one(Design *d, FabricInst *f)
{
	const Decl *fd = f->decl;
	const Value *topo = field_value(fd, FLD_FABRIC_TOPOLOGY);
	const Value *sw = field_value(fd, FLD_FABRIC_SWITCH);
	if (!topo || topo->kind != VAL_CTOR || topo->ctor->topology < 0)
		return; /* an open choice check.c reported, or one decide.c has not set */
	const TopologyFamily *family = &topology_families[topo->ctor->topology];
	if (family->switched && (!sw || sw->kind != VAL_REF))
		return;
	f->family = family;
	f->switch_model = sw && sw->kind == VAL_REF ? parts_of(d, sw->ref) : NULL; /* none for a torus */
	if (family->switched && f->switch_model->kind == KIND_OCS) {
		design_violation(d, sw->loc, 1, f->switch_model->loc, "the ocs is declared here",
				 "'%s' is an optical circuit switch: it joins fibres and forwards no "
				 "packets, so a %s needs a packet switch; optical circuit switches join "
				 "the blocks of a torus (torus(block = ...))",
				 f->switch_model->name, family->name);
		return;
	}
	f->protocol = field_enum(fd, FLD_FABRIC_PROTOCOL);
	if (f->protocol < 0)
		f->protocol = f->switch_model && f->switch_model->kind == KIND_SWITCH
				      ? f->switch_model->sw.protocol
				      : PROTO_ETHERNET;
	const Value *nic_v = field_value(fd, FLD_FABRIC_NIC);
	f->nic = nic_v && nic_v->kind == VAL_REF ? parts_of(d, nic_v->ref) : first_nic(d->ngroups ? d->groups[0].type : NULL);
	double nic_speed = f->nic ? f->nic->nic.speed : 0;
	if (!field_num_set(fd, FLD_FABRIC_LINK, &f->link_speed))
		f->link_speed = nic_speed; /* the NIC port speed */
	const Value *pv = field_value(fd, FLD_FABRIC_PLANES);
	f->planes = pv && pv->kind == VAL_QTY ? shape_count(pv->q.v) : 1;
	bool auto_planes = pv && pv->kind == VAL_AUTO;
	f->by_port = field_enum(fd, FLD_FABRIC_PLANE_ASSIGNMENT) == PLANE_BY_PORT;
	f->backup_ports = shape_count(field_num(fd, FLD_FABRIC_BACKUP_PORTS_PER_TOR));
	f->plane_form = field_value(fd, FLD_FABRIC_PLANE_ASSIGNMENT) ||
			field_value(fd, FLD_FABRIC_BACKUP_PORTS_PER_TOR);

	/* Rails: the fabric NIC's ports on every node (the first group's count; every group must
	 * agree). */
	int nodes = 0;
	f->rails = 0;
	for (int i = 0; i < d->ngroups; i++) {
		int r = f->nic ? node_rails(d->groups[i].type, f->nic) : 0;
		if (r == 0)
			continue;
		if (f->rails && r != f->rails) {
			design_violation(d, d->groups[i].loc, 1, fd->name_loc, NULL,
					 "'%s' nodes have %d '%s' ports and others %d: every node on fabric "
					 "'%s' needs the same",
					 d->groups[i].type->name, r, f->nic->name, f->rails, fd->name);
			return;
		}
		f->rails = r;
		nodes += d->groups[i].count;
	}
	/* Fabrics on the same NIC model share its ports, in fabric order: this one starts after
	 * the rails of the earlier ones. */
	const FabricInst *earlier = NULL;
	f->nic_first = 0;
	for (const FabricInst *g = d->fabrics; g < f; g++)
		if (g->nic == f->nic && g->rails > 0) {
			f->nic_first += g->rails;
			earlier = g;
		}
	int nic_ports = f->rails;
	if (f->rails > 0 && f->nic_first >= nic_ports) {
		design_violation(d, fd->name_loc, 1, earlier->decl->name_loc, "the fabric before it",
				 "fabric '%s' has no '%s' port left: the fabrics before it take all %d "
				 "of every node's; give them fewer (rails = N) or this fabric a NIC "
				 "of its own (nic = ...)",
				 fd->name, f->nic->name, nic_ports);
		return;
	}
	f->rails -= f->nic_first;
	const Value *rails_v = field_value(fd, FLD_FABRIC_RAILS);
	if (rails_v && rails_v->kind == VAL_QTY && f->rails > 0) {
		if (rails_v->q.v > f->rails) {
			const char *nic = f->nic ? f->nic->name : "NIC";
			if (f->nic_first)
				design_violation(d, rails_v->loc, rails_v->q.v / fmax(f->rails, 1) - 1,
						 earlier->decl->name_loc, "the fabric before it",
						 "%g rails asked; the nodes have %d '%s' ports left (of %d: the "
						 "fabrics before it take %d): use rails = %d",
						 rails_v->q.v, f->rails, nic, nic_ports, f->nic_first, f->rails);
			else
				design_violation(d, rails_v->loc, rails_v->q.v / fmax(f->rails, 1) - 1,
						 fd->name_loc, NULL,
						 "%g rails asked; the nodes have %d '%s' ports: use rails = %d",
						 rails_v->q.v, f->rails, nic, f->rails);
			return;
		}
		f->rails = (int)rails_v->q.v;
	}
	if (f->rails > FABRIC_MAX_RAILS) {
		design_violation(d, rails_v && rails_v->kind == VAL_QTY ? rails_v->loc : fd->name_loc,
				 (double)f->rails / FABRIC_MAX_RAILS - 1, fd->name_loc, NULL,
				 "the nodes have %d '%s' ports for fabric '%s'; clusterc wires at most %d "
				 "rails per node: use rails = %d, and another fabric for the other ports",
				 f->rails, f->nic->name, fd->name, FABRIC_MAX_RAILS, FABRIC_MAX_RAILS);
		return;
	}
	if (f->rails == 0 || !f->nic) {
		/* The NIC the nodes do have, when the fabric names another. */
		const Part *have = first_nic(d->ngroups ? d->groups[0].type : NULL);
		const char *fix = have && have != f->nic
					  ? arena_printf(d->c->arena, ": its nodes have '%s' (nic = %s)",
							 have->name, have->name)
				  : !have ? ": give the nodes nics" : "";
		design_violation(d, nic_v ? nic_v->loc : fd->name_loc, 1, d->cluster->name_loc, NULL,
				 "no node of cluster '%s' has a '%s' port for fabric '%s'%s",
				 d->cluster->name, f->nic ? f->nic->name : "NIC", fd->name, fix);
		return;
	}
	if (f->rails % f->planes) {
		int below = f->planes < f->rails ? f->planes : f->rails, above = below;
		while (f->rails % below)
			below--;
		while (above < f->rails && f->rails % above)
			above++;
		design_violation(d, pv ? pv->loc : fd->name_loc, 1, fd->name_loc, NULL,
				 "%.0f planes cannot share %d NIC ports evenly: use planes = %d%s",
				 pv->q.v, f->rails, below,
				 above > f->rails || above == below
					 ? ""
					 : arena_printf(d->c->arena, " or %d", above));
		return;
	}
	if (f->link_speed > nic_speed * (1 + 1e-9)) {
		design_violation(d, field_value(fd, FLD_FABRIC_LINK)->loc, f->link_speed / nic_speed - 1,
				 fd->name_loc, NULL,
				 "links of %s are faster than the '%s' ports (%s): use link = %s",
				 shape_gbps(d, f->link_speed), f->nic->name, shape_gbps(d, nic_speed),
				 shape_gbps(d, nic_speed));
		return;
	}
	/* The switch at the link speed: ports split by breakout. A torus has no switches. */
	bool switched = f->family->switched;
	const Value *lv = field_value(fd, FLD_FABRIC_LINK);
	if (switched && !tier_at(d, f, 0, f->switch_model, f->link_speed, lv ? lv->loc : fd->name_loc))
		return;
	f->breakout = switched ? f->tier_breakout[0] : 1;
	f->radix = switched ? f->tier_radix[0] : 0;
	if (!upper_tiers(d, f))
		return;

	double extra = 0;
	const Value *ev = field_value(fd, FLD_FABRIC_ENDPOINTS);
	for (int i = 0; ev && i < (ev->kind == VAL_LIST ? ev->n : 1); i++) {
		const Value *cv = ev->kind == VAL_LIST ? ev->items[i] : ev;
		const Part *dev = parts_of(d, cv->ref);
		const Part *nic = first_nic(dev);
		int per = nic ? node_rails(dev, nic) : 1;
		extra += cv->count->q.v * (per > 0 ? per : 1);
	}
	double all = (double)nodes * f->rails + extra;
	if (all > FABRIC_COUNT_MAX) {
		design_violation(d, ev ? ev->loc : fd->name_loc, all / FABRIC_COUNT_MAX - 1, fd->name_loc, NULL,
				 "fabric '%s' would have %.0f endpoint ports; clusterc sizes fabrics of up "
				 "to %d",
				 fd->name, all, FABRIC_COUNT_MAX);
		return;
	}
	int extra_ports = (int)extra;

	/* planes = auto: the fewest planes (a divisor of the rails) whose shape fits. */
	bool ok = false;
	for (int planes = auto_planes ? 1 : f->planes; planes <= f->rails; planes++) {
		if (f->rails % planes)
			continue;
		f->planes = planes;
		int before = d->violations.n;
		memset(f->per_plane, 0, sizeof f->per_plane);
		memset(f->links_per_plane, 0, sizeof f->links_per_plane);
		f->nshape = f->node_ports = 0;
		ok = f->family->size(d, f, topo, nodes, extra_ports);
		if (ok || !auto_planes || planes == f->rails)
			break;
		d->violations.n = before; /* try more planes */
	}
	if (!ok)
		return;
	/* By port: port j of every NIC on plane j mod P, so each NIC's ports must deal evenly. */
	if (f->by_port && f->planes > 1 && (f->nic->nic.ports % f->planes || f->nic_first % f->planes)) {
		design_violation(d, at_field(fd, FLD_FABRIC_PLANE_ASSIGNMENT), 1, f->nic->loc,
				 "the NIC is declared here",
				 "plane_assignment = by_port puts port j of every NIC on plane j mod %d; "
				 "'%s' has %d port%s%s: use plane_assignment = by_nic, or planes = %d",
				 f->planes, f->nic->name, f->nic->nic.ports, f->nic->nic.ports == 1 ? "" : "s",
				 f->nic_first % f->planes ? " and an earlier fabric takes some of them" : "",
				 f->nic->nic.ports);
		return;
	}
	f->sized = true;
	f->tors_per_rack = f->tor ? f->planes : 0; /* each plane's ToR stands in the racks it serves */
	if (!f->node_ports)
		f->node_ports = f->rails / f->planes;
	f->switches = f->links = 0;
	for (int t = 0; t < ST_COUNT; t++) {
		f->by_tier[t] = f->per_plane[t] * f->planes;
		f->switches += f->by_tier[t];
	}
	for (int t = 0; t < LT_COUNT; t++) {
		f->links_by_tier[t] = f->links_per_plane[t] * f->planes;
		f->links += f->links_by_tier[t];
	}
	/* Extra ports are dealt round-robin over the planes: each plane is shaped for the most
	 * any holds, ⌈extra / P⌉, but the last planes hold one fewer when P does not divide them. */
	int fewer = (extra_ports + f->planes - 1) / f->planes * f->planes - extra_ports;
	if (fewer && f->family->switched) {
		LinkTier edge = f->links_per_plane[LT_TERMINAL] ? LT_TERMINAL : LT_NODE_LEAF;
		f->links_by_tier[edge] -= fewer;
		f->links -= fewer;
		f->endpoints -= fewer;
	}
}

int fabric_size(Design *d)
{
	const Value *fv = field_value(d->cluster, FLD_CLUSTER_FABRICS);
	int n = fv && fv->kind == VAL_LIST ? fv->n : 0;
	if (!d->fabrics || d->nfabrics != n) {
		d->fabrics = arena_alloc(d->c->arena, sizeof(FabricInst) * (size_t)(n + 1));
		d->scaleups = arena_alloc(d->c->arena, sizeof(ScaleUpInst) * (size_t)(d->ngroups + 1));
	}
	d->nfabrics = n;
	int before = d->violations.n;
	/* With the optimizer's tracking on, each fabric's reads are its own (FabricInst.reads);
	 * a fabric the optimizer leaves out is not sized (nor read). */
	unsigned long long *sink = field_reads;
	for (int i = 0; i < n; i++) {
		Decl *fd = fv->items[i]->ref;
		if (d->fabric_drop & (1ul << i)) {
			d->fabrics[i] = (FabricInst){.decl = fd, .name = fd->name, .loc = fd->name_loc};
			continue;
		}
		d->fabrics[i] = (FabricInst){.decl = fd, .name = fd->name, .loc = fd->name_loc};
		field_reads = sink ? &d->fabrics[i].reads : NULL;
		d->fabrics[i].routing = field_enum(fd, FLD_FABRIC_ROUTING);
		d->vsource = VS_FABRIC, d->vfabric = i;
		size_one(d, &d->fabrics[i]);
		field_reads = sink;
		if (!d->plan_only)
			field_note(d->fabrics[i].reads);
	}
	d->vsource = VS_NODES, d->vfabric = -1;
	scale_up_size(d);
	for (int i = 0; i < n; i++) {
		if (!(d->fabric_drop & (1ul << i)))
			continue;
		FabricInst *f = &d->fabrics[i];
		f->sized = false;
		f->switches = f->links = 0;
	}
	return d->violations.n - before;
}
