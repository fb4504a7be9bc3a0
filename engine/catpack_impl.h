/* catpack_impl.h: what catpack.c and catunpack.c agree on besides the
 * order of the fields. */
#ifndef XF_ENGINE_CATPACK_IMPL_H
#define XF_ENGINE_CATPACK_IMPL_H

/* The first bytes of a packed catalogue; the digit changes with the layout. */
#define XF_CATPACK_MAGIC "XFCAT1"

/* Foreign elements nested deeper than this are not packed. */
#define XF_CATPACK_MAX_DEPTH 64

#endif
