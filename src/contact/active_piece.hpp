// PEG for the steppers whose contact problem has one normal row per contact
// point (Drumwright-Shell's no-slip, viscous and convex models, viscous-rk4):
// each I- and X-constraint reduced to a U-constraint on its active piece.
//
// An I-constraint says that a vertex is outside at least one facet of its set,
// max_k rho_k >= 0 over its sub-contacts (thesis eq. 4.1, Lemmas 4.1.1-4.1.2);
// an X-constraint is the same mask over two edges' sets (eq. 4.15). At a
// configuration, max_k rho_k is the largest piece, so a U-constraint on that
// piece holds exactly when the I- or X-constraint does (PEG's defining
// property, tests/contact/peg_exactness_test.cpp, carries over), and it pushes
// along that piece's normal, as eq. 4.13 lets p_i push only where rho_i is the
// maximum. The piece is chosen by the predicted gap rate psi_k / h + n_k . u_k
// at the step's start (u_k the contact's relative velocity), as decision F2
// chooses an X-constraint's force carrier (dynamics/peg_rows.cpp), ties within
// rounding to the least contact identity (collision/contact.hpp contact_key).
// When the largest piece is a shaping sub-contact (C_kappa: it cannot push)
// that is predicted to hold, beyond the tie with every pushing one, the vertex
// is outside through it and the constraint writes nothing; otherwise the
// largest pushing piece (C_iota; an X-constraint's any) gets the row: on a tie
// the row stays, so a vertex resting on a facet (every rate ~0) keeps its
// support.
//
// What this gives up against the slack rows of time stepping (eqs.
// 4.41-4.51): the piece cannot change within the step. A vertex sliding off a
// facet onto its neighbour changes piece at the next step; at h = 1 ms that is
// a gap rounding-small for the contact speeds of a walking robot. What it
// keeps: the standard model's trap does not arise, since a facet that the
// vertex is apart from through another never gets a row (a quadruped's shin
// over a tile's edge, 1.9e-5 m above its top and 4.9 mm past its riser, got a
// riser row of gap -4.9 mm from the standard model, whose correction launched
// the robot).
#pragma once

#include "contact/contact_model.hpp"

#include <memory>

namespace pegsim {

// The contact model `kind` for a one-row-per-contact stepper: standard and
// corrective as they are (U-constraints only); PEG and LNC with each I- or
// X-constraint reduced to a U-constraint on its active piece (above), at the
// velocities of the state the contacts were found at (links of trees
// included). U-constraints pass unchanged; a sub-contact chosen by several
// constraints gets one row.
std::unique_ptr<ContactModel> make_one_row_contact_model(ContactModelKind kind, Dimension dim);

}  // namespace pegsim
