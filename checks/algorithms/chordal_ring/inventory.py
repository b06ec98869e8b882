"""Every sentence of "Chordal Reliability Rings" (Madhu Kumar, Bellur & Govindan) that states a fact,
a number or a property of the overlay, the join or the failure handling, with the spec properties
that judge it or why no check does. Sec. 2's adaptation model and its triggers and sec. 4's survey of
other middleware (Tables 1-2) state no property of the ring and are left out, but for sec. 2's two
sentences on what the ring takes care of."""

from checks.plugin import Sentence
from spec import chordal_ring as C

CORRECTED_RINGS = (" (on rings built by the corrected join, this project's choice, as sec. 3.4.1's premise 'three "
                   "consecutive nodes A, B and C which form part of a chordal ring' asks: the printed join cannot "
                   "build them, its Leftleft and Rightright going wrong from the third broker on, unless "
                   "Modify-routing-table-backups, whose body is not given, writes them)")
TIME = ("time is not modelled, and a bound in n alone is not decided by the sizes measured (the rule for every "
        "O() sentence here: where one bounds the messages by a quantity of the ring, as sec. 3.4.1's O(degree(B)) "
        "does, the bound with the procedure's own constants is checked on every case, by "
        "failure_messages_within_degree; where it bounds time, it is not checkable); docs/chordal_ring.md "
        "measures them on rings of 8, 16, ..., 1,024 brokers: there a node failure's handling sends "
        "2 log2 n messages with this project's chords (degree + 1; other sizes differ), a failed chord's "
        "query takes 2 hops (the doubling chords make it so)")


# the part of the abstract's, sec. 2's and sec. 5's claim that can be checked: a failure handled as
# sec. 3.4 prints it (the O(log n) time cannot: TIME)
HANDLED = ("node_failure_confirmed", "link_failure_concluded", "waiting_a_gets_a_new_route")
HANDLED_READING = ("'can be handled' as sec. 3.4 prints the handling: a failed broker confirmed and divided "
                   "(node_failure_confirmed), a failed chord concluded down with B up (link_failure_concluded) "
                   "and, with B failed, A given a new route (waiting_a_gets_a_new_route); the O(log n) time is "
                   "not judged (time is not modelled; messages are counted in docs/chordal_ring.md). The procedures "
                   "run on rings built by the corrected join, this project's choice: as printed end to end, the "
                   "ring they need is not built (the printed join's Leftleft and Rightright go wrong from the third "
                   "broker on unless Modify-routing-table-backups, whose body is not given, writes them: "
                   "pointers_agree, violated under literal)")
LINK_PRINTED = ("literal", "literal/b-always-queries")


def best_case() -> tuple[str, str]:
    """sec. 3.3's best case, under the printed join: on rings of 3 to 64 brokers, a join through
    the broker with the widest gap beside it is taken there, no forward, and writes a fixed number
    of brokers' pointers."""
    runs = C.run_joins([None, 0] + [0] * 62, C.LITERAL)
    best = [r for r in runs[2:] if r.outcome == C.JOINED and r.forwards == 0]
    writes = sorted({len(r.written) for r in best})
    verdict = "holds" if len(best) == len(runs) - 2 and writes and writes[-1] <= 5 else "violated"
    return verdict, (f"under the printed join (literal), each of the {len(runs) - 2} joins through the first broker "
                     f"(onto rings of 2 to {len(runs) - 1} brokers) took {len(best)} requests with no forward, writing "
                     f"{' or '.join(map(str, writes))} brokers' pointers each; every exhaustive search reaches such "
                     "a join under every reading")


# sec. 3.3.1 lists each field of a broker, in this order, after "A broker b∈B is a nine tuple"
BROKER_FIELDS = ("id", "Client", "Neighset", "Left", "Right", "Leftleft", "Rightright", "Routetab", "Pow")


def nine_tuple() -> tuple[str, str]:
    return ("holds" if len(BROKER_FIELDS) == 9 else "violated",
            f"the definition lists {len(BROKER_FIELDS)} fields: {', '.join(BROKER_FIELDS)} (the model keeps the "
            "identifier and the four pointers; clients, the routing table and the computing power are not modelled)")


def sentences() -> list[Sentence]:
    return [
        # ---------------------------------------------------------------- abstract, sec. 1, sec. 5
        Sentence("abstract", "We illustrate and prove that two of the adaptation triggers - node and link "
                 "failures can be handled by the middleware in O(log n) time with the help of the chordal "
                 "reliability ring.", checked_by=HANDLED, printed=LINK_PRINTED, reading=HANDLED_READING),
        Sentence("sec. 1", "We also demonstrate that the adaptation is done in O(log n) time where n is the "
                 "number of nodes.", why=TIME),
        Sentence("sec. 1", "We provide a new topology model for interconnecting brokers and introduce a chordal "
                 "reliability ring for resilient behavior.", why="a design statement (the model is spec.chordal_ring)"),
        Sentence("sec. 1", "The chordal ring is for resilience in the face of node/link failure.",
                 why="a purpose, not a property; what the ring survives is judged at sec. 3.2 "
                     "(survives_three_failures, this project's question) and sec. 3.4-3.5"),
        Sentence("sec. 2", "In this paper we present our design for an adaptive overlay, which takes care of two "
                 "of the triggers, namely, the failure of brokers and the failures of channels.",
                 checked_by=HANDLED, printed=LINK_PRINTED,
                 reading="'takes care of' as the abstract's 'can be handled': " + HANDLED_READING),
        Sentence("sec. 2", "In the next section we present our new adaptive overlay model and the chordal "
                 "reliability ring which can adapt to broker failure and channel failure trigger events.",
                 checked_by=HANDLED, printed=LINK_PRINTED,
                 reading="'can adapt' as the abstract's 'can be handled': " + HANDLED_READING),
        Sentence("sec. 5", "We have proved that the chordal reliability ring can handle the node and link "
                 "failures occurring in an Event Based Middleware in O(log n) time.",
                 checked_by=HANDLED, printed=LINK_PRINTED, reading=HANDLED_READING),

        # ---------------------------------------------------------------- sec. 3 (the multigraph)
        Sentence("sec. 3", "Links, which have high bandwidth, can be used for speedy delivery of urgent events.",
                 why="bandwidth and speed are not modelled; routing urgent (express) events over express links "
                     "only is this project's choice ('can be used'), with the questions event_on_its_links and "
                     "special_event_delivered"),
        Sentence("sec. 3", "In a wide area network there exists multiple physical connections between the "
                 "computers. Hence a weighted multigraph structure is chosen to represent the overlay network; "
                 "there are multiple links defined between the brokers.",
                 why="a design statement: the model keeps, between two brokers, a normal link and, where Eu or Es "
                     "holds it, an express or a secure one beside it (spec.chordal_ring.Multigraph), one of each "
                     "kind; how many physical connections lie beneath is not modelled"),
        Sentence("sec. 3", "A chordal reliability ring is maintained on the multi graph structure for fault "
                 "tolerance.", checked_by=("pointers_agree",),
                 reading="maintained through the joins that build it: after every join the four pointers make "
                         "the chordal ring (whether failure handling restores it is sec. 3.5's sentence, which "
                         "its words leave open)"),
        Sentence("sec. 3", "Events whose delivery requires high security from threats like Denial of Service "
                 "attacks, man in the middle attacks and others are to be routed through secure links, i.e., a "
                 "path which supports communication of messages using a secure communication protocol.",
                 why="a requirement on routing, which the paper does not give: the model routes secure events "
                     "over secure links only by construction (its router is checked by event_on_its_links, this "
                     "project's question); whether such a path always exists is special_event_delivered's "
                     "question (violated as Eu and Es are defined)"),

        # ---------------------------------------------------------------- sec. 3.1
        Sentence("sec. 3.1", "A third degree chordal ring has an even number of nodes labeled 0, 1, 2, ..., "
                 "n-1 and each even node i is connected to nodes (i±1) mod n and (i−c) mod n, for some odd "
                 "integer c.", why="a definition cited from [15], not a claim of this paper; modelled as printed "
                                   "(spec.chordal_ring.third_degree_links; the extracted 'labeled with edges' read "
                                   "as 'labeled') and set beside the degree-4 ring in docs/chordal_ring.md: vertex "
                                   "connectivity 3 at every odd c from 3 to n - 3 on the sizes measured (any two "
                                   "failures survived at every size: a Z3 lemma, the step argued), against 4 "
                                   "(c = 1 or n - 1 makes the chord a ring link: degree 2)"),

        # ---------------------------------------------------------------- sec. 3.2
        Sentence("sec. 3.2", "Now we describe how this chordal ring can be used to increase the reliability and handle "
                 "node and link failures.", why="an announcement of what follows; how many failures the ring "
                                                "survives is this project's question (survives_three_failures, "
                                                "live_overlay_connected), the handling is judged at sec. 3.4"),
        Sentence("sec. 3.2", "In our chordal ring, the ids of the nodes are assigned in a scalable manner as follows.",
                 why="'scalable' is a judgement; how the identifier space fills is measured in docs/chordal_ring.md "
                     "(the corrected join fills 2^bits exactly; the printed one gives identifiers twice)"),
        Sentence("sec. 3.2", "Assume that the maximum number of nodes or the node id space is 2^32.",
                 why="an assumption, which the model takes (spec.chordal_ring.PAPER_BITS; smaller spaces only where "
                     "a check fills them); '2 32' read as 2^32 (the superscript lost in extraction)"),
        Sentence("sec. 3.2", "In this paper, we propose an irregular chordal ring to model the overlay network in "
                 "event based P/S systems.",
                 why="a design statement; note that this project's chord choice (k = 4, 8, 16, ..., "
                     "spec.chordal_ring.CHOICES) makes the overlay regular on rings whose size is a power of "
                     "two (degree 2 log2 n - 1 at every broker), the text leaving the chords open"),
        Sentence("sec. 3.2", "When a node is added to the broker network, the neighbours are selected based on the "
                 "round trip delay for a 'ping' like message; one of the nodes with the lowest delay is selected "
                 "as the neighbour.",
                 why="delays are not modelled: every live broker may be the one contacted (the exhaustive "
                     "search tries each; join-overlay's own comment says 'random select y from the list of "
                     "closest neighbours')"),
        Sentence("sec. 3.2", "Every node i has r edges, where r ≥ 4.",
                 why="the overlay's definition, not a claim about it; whether the joins give each broker its links "
                     "to i ± 1 and i ± 2 is the next sentence's (judged by pointers_agree). Noted, not judged: a "
                     "ring of 4 brokers or fewer has no broker with four distinct neighbours (i + 2 and i - 2 "
                     "are one broker), and the text does not say whether parallel links of its multigraph count, "
                     "so the definition says nothing of the rings the join starts from "
                     "(every_broker_has_degree_at_least_4 checks this project's builder on rings of 5 or more)"),
        Sentence("sec. 3.2", "The fundamental multigraph topology representing the overlay has a subgraph which "
                 "is a regular chordal ring of degree 4, i.e. it has an embedded chordal ring of degree 4.",
                 checked_by=("pointers_agree",),
                 reading="the ring links are the four pointers, which must be Left, Right and the two beyond "
                         "after every join"),
        Sentence("sec. 3.2", "Each node has logical links to nodes (i±1)modn and(i±2)modn, if we consider the n "
                 "nodes in the network to be sequentially numbered as 0..n-1. In addition, the nodes have links "
                 "to any (log n) nodes numbered (i +k) mod n where k may vary between 3 and n-2.",
                 checked_by=("pointers_agree",),
                 reading="the nodes numbered along the ring, the links to i ± 1 and i ± 2 are the four pointers "
                         "(sec. 3.3.1: Left, Right, Leftleft, Rightright), which must name those brokers after every "
                         "join; which k the chords take is this project's choice (k = 4, 8, 16, ..., "
                         "spec.chordal_ring.CHOICES), the text leaving it open"),
        Sentence("sec. 3.2", "The first node gets id 0 and the second node is assigned the id 2^16 - 1. After "
                 "that, every new node that joins the ring is given the id mid-way between its left and right "
                 "neighbours.", checked_by=("new_id_midway", "ids_unique_in_ring_order"),
                 reading="mid-way between the brokers the join puts it between, rounded either way; the "
                         "identifiers distinct and in ring order. '216 –1' is read as 2^16 - 1 (the superscript lost "
                         "in extraction). The second node's identifier is this sentence's own rule, which the model "
                         "follows (spec.chordal_ring.CHOICES): Process-join-request, run on a ring of one broker, "
                         "would give it identifier 0 again (both gaps are 0), so the text contradicts itself there"),
        Sentence("sec. 3.2", "Every node is connected to nodes that are designated as two of its neighbours in "
                 "the ring. In addition it has links to two of its next further neighbours too.",
                 checked_by=("pointers_agree",),
                 reading="Left, Right, Leftleft and Rightright as sec. 3.3.1 defines them, after every join"),
        Sentence("sec. 3.2", "This selected node then inserts the new node into the chordal ring as its "
                 "neighbour, making necessary updations in the chordal ring.",
                 checked_by=("pointers_agree", "every_join_inserts"),
                 reading="the new broker inserted (whenever a free identifier is left) and the ring's "
                         "pointers right afterwards"),
        Sentence("sec. 3.2", "All the information maintained by a node is backed up in one, two, three or four "
                 "neighbouring nodes according to the required level of reliability.",
                 why="a configuration, not a claim; what four backups buy is sec. 3.5's sentence, judged "
                     "there (data_survives); the spec takes 1 to 4 holders (FailureRun.backups), the checks "
                     "four, as sec. 3.5 has it"),
        Sentence("sec. 3.2", "When a node fails, neighbours detect (using any standard method), as they "
                 "already have a link between them.",
                 why="detection is abstracted: a failed broker's messages are not delivered, and B's Left "
                     "detects (a choice the text leaves open, spec.chordal_ring.CHOICES)"),
        Sentence("sec. 3.2", "When a node fails, the neighbouring node can optionally do one of the following. "
                 "(1) Share the tasks of the broken node, if the current load at the node is within the permitted "
                 "limit. ... (2) Share the tasks with next neighbours by passing the information if it cannot "
                 "afford to takeover all the tasks of the failed broker. (3) If the current load is very high, and "
                 "the neighbours are also heavily loaded then the node can request for another broker to be set "
                 "up, insert it into the ring by setting up new links, store up the pending actions and pass on "
                 "them to the new broker as soon as it is up.",
                 checked_by=("tasks_taken_over",),
                 reading="load is not modelled, so the conditions that choose among the options are not checked: "
                         "each option is carried out whatever the load, and what is judged is this project's "
                         "question whether, under each, B's tasks end wholly with live brokers. One failed broker, "
                         "on rings of 5 to 9 with and without chords, each option as this project reads it (a "
                         "choice, spec.chordal_ring.CHOICES): A, told failed(B), takes B's tasks; or B's live backup "
                         "holders share them equally; or a new broker is inserted by the reading's join through A "
                         "(the printed join under literal) and takes them (several failures at once are "
                         "tasks_taken_over_several's)" + CORRECTED_RINGS),

        # ---------------------------------------------------------------- sec. 3.3
        Sentence("sec. 3.3.1", "Left, Right, Leftleft and Rightright are pointers to the left neighbour, left "
                 "neighbour's left neighbour, right neighbour, and right neighbour's right neighbour "
                 "respectively in the chordal ring.", checked_by=("pointers_agree",),
                 reading="after every join: set, consistent with each other, and Right going round every "
                         "broker once. The sentence is misprinted itself: 'respectively' pairs Right with the left "
                         "neighbour's left neighbour and Leftleft with the right neighbour, which no ring can keep "
                         "beside the names' own meaning and the join's code (Right[b] = y for b joined on y's "
                         "left); the check reads it by the names, Leftleft the left neighbour's left neighbour "
                         "and Right the right neighbour (spec.chordal_ring.PARSE_REPAIRS), and the printed join "
                         "fails even that"),
        Sentence("sec. 3.3.1", "A broker b∈B is a nine tuple", reproduced=nine_tuple,
                 reading="the fields the definition goes on to list, counted"),
        Sentence("sec. 3.3.1", "These nodes can be directly accessed by the node b and are based on locational "
                 "proximity.", why="access and proximity are not modelled: the four pointers are links of "
                                   "the overlay by definition (spec.chordal_ring.neighsets)"),
        Sentence("sec. 3.3", "All brokers are a part of the chordal ring. But only a subset Ec of En forms the "
                 "chordal ring: Ec = U over b of {(b, Left(b)), (b, Leftleft(b))}.",
                 checked_by=("pointers_agree",),
                 reading="every broker on the ring its pointers make (Right goes round every broker once), "
                         "its ring links those of Left and Leftleft"),
        Sentence("sec. 3.3.2", "If En contains (b1, b2), it implies that b1 can directly address b2 and "
                 "vice-versa, as the link is bi-directional.",
                 why="a definition, which the model keeps by construction: a link is an unordered pair "
                     "(spec.chordal_ring.link)"),
        Sentence("sec. 3.3", "The links are weighted by their bandwidth or carrying capacities. W is the set of "
                 "weights for edges based on the link bandwidth and existing message traffic.",
                 why="definitions, which differ (the second adds traffic); bandwidth and traffic are not modelled: "
                     "W is any weight per link, read as a cost by the event routing (a choice, "
                     "spec.chordal_ring.CHOICES), and no check's verdict depends on the weights"),
        Sentence("sec. 3.3", "The reliable ring (or the chordal ring) is a sub graph of the graph.",
                 why="a definition, kept by construction: the ring's links Ec are normal links (spec.chordal_ring."
                     "ring_edges, neighsets)"),
        Sentence("sec. 3.3", "The chordal reliability ring helps in adaptation to broker/link failures.",
                 why="a purpose, as sec. 1's 'for resilience'; the failure handling it helps is judged at sec. 3.4"),
        Sentence("sec. 3.3", "Upon creation of a new broker node, it contacts the nearest neighbour in the broker "
                 "network.", why="distance is not modelled: every live broker may be the one contacted (the "
                                 "exhaustive search tries each)"),
        Sentence("sec. 3.3", "Eu is a subset of En; Es is a subset of En.",
                 why="a definition, which the model keeps by construction: spec.chordal_ring.Multigraph refuses "
                     "an express or secure link that is not a normal one"),
        Sentence("sec. 3.3.3", "If Eu contains (b1, b2), it implies that b1 can directly address b2 and vice-versa "
                 "as the link is bi-directional, and the latency of the message transfer is guaranteed to be in "
                 "the range designated as the 'express' range.",
                 why="latency is not modelled: an express link is a link an express event may take"),
        Sentence("sec. 3.3.4", "If Es contains (b1, b2), it implies that b1 can directly address b2 and vice-versa "
                 "and the message will be delivered using secure protocols for message transfer throughout the "
                 "path.", why="a definition of one secure link, whose 'path' is the physical path beneath it "
                              "(sec. 2: a logical link corresponds to a physical path); secure protocols are not "
                              "modelled"),
        Sentence("sec. 3.3", "The contacted node inserts the new node into the broker network if it has id "
                 "space in its neighbourhood.", checked_by=("contacted_broker_with_room_inserts",),
                 reading="'id space in its neighbourhood' as a free identifier beside it, on either side "
                         "(a gap of 2 or more, mod 2^32): it takes the request itself and the broker joins"),
        Sentence("sec. 3.3", "The new node is joined as its neighbour on the left or right depending on which "
                 "side has more id space remaining.", checked_by=("joins_the_roomier_side",),
                 reading="by the pointers: the side of the broker that took the request (the contacted one where it "
                         "has room, the sentence's case; else the one the request was forwarded to) whose gap is the "
                         "larger (the left where equal, as the printed test has it). The identifier it gets is sec. "
                         "3.2's sentence: under the printed join a broker joined on the left gets an identifier on "
                         "y's right (new_id_midway, violated under literal)"),
        Sentence("sec. 3.3", "Only four nodes in the neighbourhood, including the new node and the contacted "
                 "broker, require link and data updations, giving an O(1) complexity for the addition.",
                 checked_by=("join_updates_four_nodes",),
                 reading="the brokers whose ring pointers must change for the ring after the join to be as "
                         "sec. 3.3.1 defines it, the contacted broker among them; the printed call "
                         "Modify-routing-table-backups(Ry, y, b, Ly, LLy) itself names five. Five is still a "
                         "constant; the O(1) of a join as printed fails elsewhere: a request can be forwarded for "
                         "ever (join_ends)"),
        Sentence("sec. 3.3", "In this manner, any new broker generated is inserted into the Chordal reliability "
                 "ring.", checked_by=("every_join_inserts", "join_ends"),
                 reading="whenever a free identifier is left (a full space can insert no one); the request "
                         "forwarded finitely often"),
        Sentence("sec. 3.3", "It can be seen that it is O(1) in the best case.", reproduced=best_case,
                 reading="the best case: a join whose contacted broker has room, taken there with no forward"),

        # ---------------------------------------------------------------- sec. 3.4.1
        Sentence("sec. 3.4.1", "Node A sends a test-neighbour(B) message to node C, its neighbour's neighbour; C "
                 "sends a test-acknowledgement message to B and, if it receives no reply within the stipulated "
                 "time, confirms node failure of B and sends failed(B) message to A.",
                 checked_by=("node_failure_confirmed",),
                 reading="one failed broker, on rings of 5 to 9 brokers with and without chords" + CORRECTED_RINGS),
        Sentence("sec. 3.4.1", "Nodes A and C execute a divide-Neighbour(B) and send messages to all the "
                 "neighbours of B to request them to route messages meant for B to A or C.",
                 checked_by=("b_neighbours_told",),
                 reading="one failed broker, on rings of 5 to 9 with and without chords: every live neighbour "
                         "of B but A and C receives divide-Neighbour(B) from A or C (how they divide B's "
                         "neighbours is an open reading, split or both); what the neighbours then do with B's "
                         "messages is not modelled" + CORRECTED_RINGS),
        Sentence("sec. 3.4.1", "Consider the three consecutive nodes A, B and C which form part of a chordal ring as "
                 "shown in Figure 5.", why="the premise of the failure procedure: every failure check runs on rings "
                                           "whose pointers make the chordal ring, built by the corrected join (a "
                                           "choice of this project, spec.chordal_ring.CHOICES)"),
        Sentence("sec. 3.4.1", "Node A detects a failure in the link AB, but it does not know whether it is a link or "
                 "node failure.", why="detection is abstracted: a failed broker's messages are not delivered, "
                                      "and B's Left, A, starts the test (a choice, spec.chordal_ring.CHOICES)"),
        Sentence("sec. 3.4.1", "The complexity of this operation is bounded by O(degree(B)).",
                 checked_by=("failure_messages_within_degree",),
                 reading="O(degree(B)) read with the procedure's own constants: at most 3 + 2 degree(B) "
                         "messages per failure (degree(B) + 1 under the split divide, as measured in the docs)"
                         + CORRECTED_RINGS),
        Sentence("sec. 3.4.1", "If degree of B is bounded by log n then the complexity of the algorithm dealing with "
                 "node failure is O(log n).",
                 why="as printed its premise cannot hold in sec. 3.2's own overlay (four ring links and log n chords: "
                     "degree(B) >= log n + 4), nor on the rings searched (5 to 9 brokers, degree >= 4 > log2 9), so "
                     "no run tests it; read as degree(B) = O(log n) and the complexity as messages (two readings "
                     "of this project), it follows by arithmetic from the sentence before it (at most 3 + 2 "
                     "degree(B) messages: failure_messages_within_degree, holds), not judged on its own; time is "
                     "not modelled"),

        # ---------------------------------------------------------------- sec. 3.4.2
        Sentence("sec. 3.4.2", "If the link is a link on the chordal ring, the actions taken are partially outlined "
                 "in the algorithm on node failure, described in the previous section.",
                 why="a pointer to sec. 3.4.1's procedure, modelled as printed for a ring link "
                     "(spec.chordal_ring.link_failure: test-neighbour through the neighbour's neighbour); "
                     "'partially' leaves the rest to the next sentences"),
        Sentence("sec. 3.4.2", "A link failure is detected by nodes A and B, but they cannot ascertain whether it "
                 "is a link failure or a node failure of the node at the other end of the link.",
                 why="detection is abstracted (a failed link carries nothing); the test that tells the two "
                     "apart is the next sentences'"),
        Sentence("sec. 3.4.2", "If the neighbour's neighbour does receive acknowledgement from the node suspected "
                 "to have failed, it sends to the enquiring node the message that the node is up and original "
                 "node confirms link failure.",
                 why="a step of the procedure, modelled as printed (spec.chordal_ring.link_failure: with every "
                     "message delivered A concludes link down by construction, so no check could fail it)"),
        Sentence("sec. 3.4.2", "Then it routes via the neighbours neighbour all the messages meant for the "
                 "neighbour.", why="a step of the procedure, modelled as printed: A's path to B goes through C "
                                   "(spec.chordal_ring.link_failure), linked to both by the ring's definition, so "
                                   "no check could fail it; where B is two away (A's Leftleft or Rightright) the "
                                   "neighbour's neighbour is B itself, and C is this project's choice, the broker "
                                   "between them (spec.chordal_ring.CHOICES); the traffic rerouted is not modelled"),
        Sentence("sec. 3.4.2", "There are two cases: a. the link AB is a link on the chordal ring; b. the link AB "
                 "is a chord of diameter > 2. The node handles the two cases differently.",
                 why="a definition, modelled: a failed link to A's Left, Right, Leftleft or Rightright is a ring "
                     "link (tested through the neighbour's neighbour), any other a chord (length 4 or more under "
                     "this project's chord choice), queried (spec.chordal_ring.link_failure)"),
        Sentence("sec. 3.4.2", "If the link is not a link on the chordal ring, node A tries to confirm a link failure "
                 "by routing a query message to the node at the other end B. It does so by routing to the node "
                 "with id nearest to the id of B and having a link to A. The receiving node relays the message. "
                 "It is thus routed through a traced series of nodes to the destination.",
                 checked_by=("b_concludes_link_down",),
                 reading="each broker passes the query to its link with the identifier nearest B's (the failed "
                         "link not among A's; 'nearest' as the absolute difference, or either way round the ring: "
                         "literal/round-nearest); it reaches B on every failed chord of rings of 8, 12 and 16 "
                         "brokers (the smaller have none), built by the corrected join with this project's chords"),
        Sentence("sec. 3.4.2", "If the destination node B is up, it sends a link-down message back via the incoming "
                 "path, unless it has not already sent a query message similar to A.",
                 checked_by=("link_failure_concluded",),
                 printed=("literal", "literal/b-always-queries"),
                 reading="as printed, a double negative: B sends link-down only when it has already sent A a "
                         "query of its own. Every chord of rings of 8, 12 and 16 brokers (the smaller have none), "
                         "with and without B's own query sent before A's arrives. Whether B, which detects the "
                         "failure too, queries A after A's query has arrived is left open: where it does not "
                         "(literal), A hears neither B's query nor link-down; where it does "
                         "(literal/b-always-queries), B's query tells A. The next sentence but one ('Node B also "
                         "concludes that the link failed on receiving A's query') leans towards the first (B, having "
                         "concluded, has no reason to query), 'it is detected by nodes A and B' towards the second; "
                         "neither settles it, so both readings decide: the ambiguity is when B queries, not the "
                         "double negative (literal/round-nearest makes literal's choice and routes the query "
                         "another way, so it fails with it). The repair 'unless it has already sent' "
                         "(the reading field link_down, taken back by printed-link-down) lets A conclude on every "
                         "chord either way"),
        Sentence("sec. 3.4.2", "Thus node A either receives the query message or the link down message and in "
                 "either case concludes that the link to node B is down and fixes up the alternate path so "
                 "obtained as the new routing path.", checked_by=("link_failure_concluded",),
                 printed=("literal", "literal/b-always-queries"),
                 reading="every chord of rings of 8, 12 and 16 brokers (the smaller have none), both brokers up, "
                         "with and without B's own query to A sent first, and B querying afterwards or not (an "
                         "open choice): the query routed hop by hop to the link nearest B's identifier, "
                         "and link-down back along its path as the preceding sentence prints it, 'unless it has "
                         "not already sent a query message similar to A' (so only when B has queried A itself; "
                         "A hears nothing when B has not). The repair reading it as 'unless it has already sent' "
                         "(printed-link-down takes it back) holds. The fixing of the new path is not modelled"),
        Sentence("sec. 3.4.2", "Node B also concludes that the link failed on receiving A's query.",
                 checked_by=("b_concludes_link_down",),
                 reading="B concludes on the query's arrival, as the text gives it; what is judged is that A's query "
                         "reaches B (B up), on every chord of rings of 8, 12 and 16 brokers" + CORRECTED_RINGS),
        Sentence("sec. 3.4.2", "If the sending node A receives neither the query message from B nor link down "
                 "message it waits and ultimately gets a new route message from the neighbour of the failed "
                 "node B.", checked_by=("waiting_a_gets_a_new_route",), printed=LINK_PRINTED,
                 reading="every chord of rings of 8, 12 and 16 brokers, B failed with it or up (with and without "
                         "its own query first): with B failed, the new route message is sec. 3.4.1's "
                         "divide-Neighbour(B), sent by A' = Left(B) or C' = Right(B) to every neighbour of B, A "
                         "among them; with B up, A hears neither where B sends no link-down (the literal reading "
                         "of the sentence before) and then no one sends it a new route"),
        Sentence("sec. 3.4.2", "We assume degree of each node to be bound by log n and the links from every node "
                 "to be uniformly distributed in the n-node space. Then the process takes O(log n) time.",
                 why=TIME + "; the chords are not uniformly distributed under this project's choice"),

        # ---------------------------------------------------------------- sec. 3.5
        Sentence("sec. 3.5", "The multigraph based overlay topology model with the chordal ring can efficiently "
                 "support all the adaptation triggers we have listed in Section III.",
                 why="a summary over triggers this project does not model (load, mobility, publishing rate); the "
                     "failure triggers are judged at sec. 3.4"),
        Sentence("sec. 3.5", "The load variations on the links due to the increase of traffic can result in link "
                 "failures or buffer overflow. This can be handled by an adaptive routing algorithm which can "
                 "utilize the alternate paths available in the multi graph for load distribution and control.",
                 why="the adaptive routing algorithm is not given (sec. 5: still being developed), and traffic "
                     "is not modelled"),
        Sentence("sec. 3.5", "An adaptive routing algorithm can also optimize of the routing paths established "
                 "initially, in accordance with the changes in resource availability.",
                 why="the adaptive routing algorithm is not given (sec. 5: still being developed)"),
        Sentence("sec. 3.5", "As there are express, normal and secure links defined in the overlay, adapting "
                 "to the event disseminations of urgent, and secure events is straightforward.",
                 why="'straightforward' is a judgement of ease, not a property; what can be checked is this "
                     "project's question special_event_delivered: a secure event, routed through secure links as "
                     "sec. 3 says, cannot reach a broker none of whose links is secure, which sec. 3.3's "
                     "definitions (Es any subset of En) allow (violated; with the ring's links Ec secure and "
                     "express too, the reading special_links = ring, every event is delivered); the paper does "
                     "not say that every secure event reaches every broker, so the question does not judge it"),
        Sentence("sec. 3.5", "The failures of channel can be handled at the routing algorithm through the "
                 "standby links.", why="the routing algorithm is not given; link failure is judged by "
                                       "sec. 3.4.2's sentences"),
        Sentence("sec. 3.5", "The broker failure will not affect the network as the routing and related "
                 "information are backed up in four neighbouring nodes (Left, Right, Leftleft and Rightright).",
                 checked_by=("data_survives", "one_failure_keeps_the_ring"), alternatives=True,
                 reading="one failed broker, on rings of 5 to 9 (several failures at once are this project's "
                         "questions); 'will not affect the network' read two ways the words allow: as the reason "
                         "given says, no data lost (its data held by a live broker among its four: data_survives), "
                         "or the network as it was, the live brokers' pointers the chordal ring again once the "
                         "failure is handled (one_failure_keeps_the_ring; the printed handling rewrites no pointer: sec. "
                         "3.4.1 gives divide-Neighbour only as messages to B's neighbours; the repair splice = four "
                         "splices A and C)" + CORRECTED_RINGS),
        Sentence("sec. 3.5", "Thus the proposed overlay is capable of supporting all the adaptation triggers "
                 "listed in Figure 2.", why="a summary of the design over triggers this project does not model"),
        Sentence("sec. 3.5", "Seamless mobility of clients and efficient local roaming and distant roaming of "
                 "clients can be handled with minimum message overhead through the chordal ring.",
                 why="clients and their movement are not modelled (the paper leaves their algorithms beyond "
                     "its scope)"),
        Sentence("sec. 3.5", "The chordal ring can also handle client mobility; the routing information being "
                 "duplicated in the neighbouring nodes of the chordal ring helps in adapting to local client "
                 "movement (regional roaming) transparently.",
                 why="clients and their movement are not modelled (the paper leaves their algorithms beyond "
                     "its scope)"),
    ]
