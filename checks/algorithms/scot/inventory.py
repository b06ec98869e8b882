"""Every sentence of the OctopiS/SCOT paper that states a fact, a number, a theorem, a figure or a property
of the algorithms, with the spec properties that judge it or why no check can (issue 10: `pubsub-proofs
claims` and docs/scot.md list them all).

Paper: "Content-based Dynamic Routing in Structured Overlay Networks" (OctopiS),
../shared/seeds/003_26017af1ed5d6736.txt. The text lost its equations and most symbols; a sentence is
quoted as the extraction prints it (a gap where a symbol was), trimmed to its claim with "…".

Sentences about the BID-based baseline (flooding, sec. 2 and 6.1) are listed with a why even where a
check bears on them: the properties state OctopiS's claims, so a violation under `bid-flooding` agrees
with a sentence that says the baseline has the flaw, and citing the property would read it backwards.
"""

from checks.plugin import Sentence
from spec.scot import DNR_READINGS

# The readings a sentence speaks of where it names one part of OctopiS (checks.claims.judge): the
# subscription broadcast and SNR, or DNR. A sentence on SNR is not judged by DNR's readings, which
# route the same notifications differently.
SNR_PART = ("octopis-sbp", "octopis-sbp-every-tree", "snr")


def sbp_counts() -> dict:
    """The subscription broadcast's message counts over every candidate 75-broker SCOT
    (checks/algorithms/scot/reproduce.py, its committed cache)."""
    import json

    from checks.algorithms.scot.reproduce import REPRODUCTION_JSON

    return json.loads(REPRODUCTION_JSON.read_text())["sbp"]


def duplicate_share(claimed: float = 0.80) -> tuple[str, str]:
    """sec. 7.3's "almost 80% of the generated IMs are used to detect and discard duplicates" in
    flooding: holds when every candidate's share of discarded duplicates is within two points of it."""
    sbp = sbp_counts()
    share = sbp["duplicate_share_of_flooding"]
    return ("holds" if abs(share - claimed) <= 0.02 else "violated",
            f"on every one of the {sbp['trees']} candidate SCOTs {share:.1%} of flooding's messages are discarded "
            "duplicates (its messages beyond a tree's links)")


def fewer_sbp_messages(claimed: float = 0.89) -> tuple[str, str]:
    """sec. 7.3's "89% fewer inter-broker messages in subscription delivery", judged by counting on
    every 75-broker SCOT that fits the paper's description (checks/algorithms/scot/reproduce.py,
    its committed cache): violated when no candidate reaches the claimed share, to the percent."""
    sbp = sbp_counts()
    shares = [1 - c / f for c in sbp["clustered_messages"] for f in sbp["flooding_messages"]]
    verdict = "holds" if any(abs(s - claimed) < 0.005 for s in shares) else "violated"
    return verdict, (f"on every one of the {sbp['trees']} candidate {sbp['brokers']}-broker SCOTs the clustered "
                     f"broadcast sends {'/'.join(map(str, sbp['clustered_messages']))} messages (a tree's links) "
                     f"against flooding's {'/'.join(map(str, sbp['flooding_messages']))}: "
                     f"{min(shares):.1%} fewer, not {claimed:.0%} (docs/scot.md, reproduction of sec. 7); the "
                     "paper's own sec. 7.3 says almost 80% of flooding's messages are duplicates, and the "
                     "clustered broadcast sends exactly the rest, so 80% is what its figures imply too")
DNR_PART = DNR_READINGS

# the reasons that recur
TESTBED = ("a measurement on the paper's PADRES testbed (35 nodes, Yahoo! Finance stock workload) whose values "
           "are in a figure, not in the extracted text; this project has neither the testbed nor the figure")
NOT_MODELLED_DELAY = ("a delay measured on the paper's testbed; the model has no processing, matching or "
                      "payload times, so no check judges it")
BY_CONSTRUCTION = ("true by construction of the reconstructed product T x K_m (spec.scot.build, "
                   "spec.scot.product_graph); no spec property judges it")
FIGURE = "a walk-through of a figure whose topology and subscribers are not in the extracted text"
BASELINE = ("a claim about the BID baseline (uncontrolled flooding), not about OctopiS: the properties state "
            "OctopiS's claims, so the bid-flooding verdict of {p} (violated) agrees with this sentence and a "
            "checked_by entry would read it as against the paper")
PRIORITY = "a claim of priority over the literature, not a property of the algorithms"


def sentences() -> list[Sentence]:
    return [
        # ------------------------------------------------------------------ abstract
        Sentence("abstract",
                   "This paper introduces the first subscription–based publish/subscribe system, OctopiS, which "
                   "offers inter–cluster dynamic routing when congestion in the output queues is detected.",
                   why=PRIORITY),
        Sentence("abstract",
                   "SCOT is divided into homogeneous clusters where each cluster has equal number of brokers and "
                   "connects to other clusters through multiple inter–cluster overlay links.",
                   why=BY_CONSTRUCTION + " (every cluster is a replica of the tree factor, every region a K_m)"),
        Sentence("abstract",
                   "These links are used to provide parallel routing paths between publishers and subscribers "
                   "connected to brokers in different clusters.",
                   why="a design statement about the topology's parallel iCOLs; the DNR checks use them but no "
                       "property states that parallel paths exist"),
        Sentence("abstract",
                   "OctopiS generates subscription–trees of shortest lengths used by Static Notification Routing "
                   "(SNR) algorithm.",
                   about=SNR_PART, checked_by=("subscription_tree_is_shortest", "notification_takes_shortest_paths")),
        Sentence("abstract",
                   "Dynamic Notification Routing (DNR) algorithm uses a bit–vector mechanism … to offer inter–cluster "
                   "dynamic routing without making updates in routing tables and minimizing load on overwhelmed "
                   "brokers and congested links.",
                   about=DNR_PART, checked_by=("step_keeps_every_target", "notification_delivered_exactly_once",
                               "at_most_one_copy_into_congested_queues"),
                   reading="the subscription trees are fixed inputs DNR cannot update, so 'without updates' is "
                           "judged as: with the trees unchanged, the CBV still gets every target served; "
                           "'minimizing load' is read as at most one copy into congested queues per broker"),
        Sentence("abstract",
                   "…OctopiS is scalable and reduces the number of inter–broker messages in subscription delivery "
                   "by 89%…",
                   reproduced=fewer_sbp_messages),
        Sentence("abstract", "…subscription delay by 77%…",
                   why=NOT_MODELLED_DELAY + "; docs/scot.md shows link delays alone give flooding the lower "
                       "subscription delay, so the 77% must come from processing duplicates"),
        Sentence("abstract",
                   "…end–to–end notification delay in static and dynamic routing by 47% and 58% respectively…",
                   why=NOT_MODELLED_DELAY),
        Sentence("abstract",
                   "…and the lengths of output queues of brokers in dynamic routing paths by 59%.",
                   why="compared in docs/scot.md's burst simulation (not reproduced: DNR's target queues there "
                       "are about 73% longer than BID's, not 59% shorter), not judged by a check"),

        # ------------------------------------------------------------------ sec. 1
        Sentence("sec. 1",
                   "Notification routing in cyclic overlay networks has received a little attention and, to the "
                   "best of our knowledge, no CPS system offers dynamic routing.",
                   why=PRIORITY),
        Sentence("sec. 1",
                   "This paper introduces the first CPS system, OctopiS, which offers inter–cluster dynamic routing.",
                   why=PRIORITY),
        Sentence("sec. 1",
                   "OctopiS exploits the structuredness to generate subscription–trees of shortest lengths and do "
                   "not require unique identifications to detect loops.",
                   checked_by=("subscription_tree_is_shortest", "subscription_tree_has_no_loop"),
                   reading="Algorithm 1 as modelled carries no identification, so loop freedom without one is "
                           "what subscription_tree_has_no_loop judges under octopis-sbp"),
        Sentence("sec. 1",
                   "The system offers inter-cluster dynamic routing without making updates in routing tables "
                   "(cf. Secs. 4 & 5).",
                   about=DNR_PART, checked_by=("step_keeps_every_target", "notification_delivered_exactly_once"),
                   reading="the trees are fixed inputs of every DNR run; judged as: DNR still reaches every "
                           "interested broker once with them unchanged"),
        Sentence("sec. 1",
                   "…while Dynamic Notification Routing (DNR) algorithm reduces delivery delay by offering "
                   "inter–cluster dynamic routing when congestion is detected.",
                   why="a delay; compared in docs/scot.md's burst simulation (dnr-icols-only about 6% below SNR, "
                       "averaged over the three rates), not judged by a check"),
        Sentence("sec. 1 contributions (iii)",
                   "Sec. 4 describes a clustering approach with additional classifications for topology elements "
                   "to prevent loops in SCOT.",
                   about=SNR_PART, checked_by=("subscription_tree_has_no_loop", "no_broker_receives_a_notification_twice")),
        Sentence("sec. 1 contributions (iv)",
                   "A subscription broadcast algorithm that generates subscription–trees of shortest lengths in a "
                   "clustered SCOT is described in Sec. 5.",
                   checked_by=("subscription_tree_is_shortest",)),

        # ------------------------------------------------------------------ sec. 2 (the baseline)
        Sentence("sec. 2 I2",
                   "This indicates that, despite using BIDs, extra IMs are generated to detect and discard "
                   "duplicates.",
                   why=BASELINE.format(p="no_duplicate_subscription_messages")),
        Sentence("sec. 2 I3",
                   "…multiple subscribe calls issued from the same broker may generate multiple subscription–trees "
                   "with different lengths. … This may generate subscription–trees of larger lengths when load on "
                   "the links and brokers is uneven.",
                   why=BASELINE.format(p="subscription_tree_is_shortest") + " (docs/scot.md: a secondary broker "
                       "reached through another secondary cluster, depth 2 for distance 1)"),
        Sentence("sec. 2 I3",
                   "To the best of our knowledge, no CPS system generates subscription–trees of shortest lengths.",
                   why=PRIORITY),

        # ------------------------------------------------------------------ sec. 3
        Sentence("sec. 3.2",
                   "These properties augment a SCOT with essential characteristics that are used for generating "
                   "subscription–trees of shortest lengths.",
                   checked_by=("subscription_tree_is_shortest",),
                   reading="every checked SCOT is built by spec.scot.build, which enforces the acyclic and "
                           "connectivity properties; the claim is judged through the trees built on them"),
        Sentence("sec. 3.2",
                   "The definitions of the fibers indicate that, for each vertex of , generates one replica of , "
                   "and for each vertex of , CPUG generates one replica of . The number of distinct fibers of and "
                   "is equal to and respectively.",
                   why=BY_CONSTRUCTION),
        Sentence("sec. 3.2",
                   "Reversing the order of operands does not generate extra links or nodes, since CPUG is "
                   "commutative.",
                   why="a standard fact of product graphs; the model fixes the label order (tree vertex, cluster) "
                       "and never reverses it, so no property judges it"),

        # ------------------------------------------------------------------ sec. 4
        Sentence("sec. 4.1", "There are and number of clusters and regions in a SCOT, respectively.",
                   why=BY_CONSTRUCTION + " (symbols lost: read as m clusters and |V(T)| regions)"),
        Sentence("sec. 4.1",
                   "The SCOT in Fig. 3 contains three clusters (horizontal layers) …, and six regions (vertical "
                   "layers)…",
                   why="a fact of Fig. 3 (a 6-vertex tree x K_3, consistent with sec. 4.5), not judged by a check"),
        Sentence("sec. 4.2", "There are number of aCOLs, and iCOLs in a SCOT.",
                   why="the counts were lost in extraction; the reconstruction's (|V(T)| - 1) m aCOLs and "
                       "|V(T)| m (m - 1) / 2 iCOLs (spec.scot.Scot.link_count) are not judged by a property"),
        Sentence("sec. 4.3",
                   "This arrangement of secondary brokers requires only one iCOL to forward messages from one "
                   "cluster to any other cluster.",
                   checked_by=("subscription_tree_links_are_host_acols_and_icols", "subscription_tree_is_shortest"),
                   reading="judged through Algorithm 1's trees: every secondary broker hangs from its region's "
                           "host-cluster broker by one iCOL, and d(B(x,i), B(x,j)) = 1 in the distance lemma"),
        Sentence("sec. 4.3",
                   "An edge broker has at most one primary neighbour, while an inner broker has at least two "
                   "primary neighbours. All brokers in a region are the same type (i.e., are either inner or edge).",
                   why=BY_CONSTRUCTION + " (a broker's type is its tree vertex's degree)"),
        Sentence("sec. 4.4",
                   "Since each subscriber has at most one host cluster, there is only one meaningful bit in each .",
                   why="by construction of the subscription CBV (spec.scot.cluster_bit sets one bit); no property "
                       "judges it"),
        Sentence("sec. 4.4",
                   "The number of significant bits in a CBV is equal to the number of clusters in a SCOT. The SCOT "
                   "in Fig. 3 has three clusters and requires only three bits in CBV to identify all possible TSCs.",
                   why="by construction of the CBV (bit i for cluster i, i < m); no property judges it"),
        Sentence("sec. 4.5",
                   "There are 3 clusters and 6 regions where each cluster is identified by , where .",
                   why="a fact of Fig. 2 (6-vertex tree x triangle), consistent with the construction, not judged "
                       "by a check"),
        Sentence("sec. 4.5",
                   "B(a,0), and B(c,0) are the primary, while B(b,1) and B(b, 2) are the secondary neighbours of "
                   "B(b,0).",
                   why=FIGURE + " (Fig. 2's tree); consistent with the definition when a ~ b ~ c in the tree"),
        Sentence("sec. 4.5", "+ is 33.",
                   why="arithmetic on Fig. 2 (symbols lost: |aCOLs| + |iCOLs|): 5 x 3 + 6 x 3 = 33 with the "
                       "reconstruction's counts (spec.scot.Scot.link_count); no property judges it"),

        # ------------------------------------------------------------------ sec. 5
        Sentence("sec. 5",
                   "We use this approach to exploit structuredness of SCOT for a controlled SBP to generate "
                   "subscription–trees of shortest–lengths, avoid using unique identification for each "
                   "subscription, and prevent loops and extra IMs (eliminating I1, I2, and I3).",
                   checked_by=("subscription_tree_is_shortest", "subscription_tree_has_no_loop",
                               "no_duplicate_subscription_messages")),
        Sentence("sec. 5",
                   "No loops occur, as the host cluster is a replica of an acyclic factor … and the subscription "
                   "broadcast is similar to in an acyclic overlay, which generates subscription–tree of the "
                   "minimum length.",
                   checked_by=("subscription_tree_has_no_loop", "subscription_tree_is_shortest")),
        Sentence("sec. 5", "No unique identification is needed, and no duplicates appear.",
                   checked_by=("every_broker_receives_the_subscription_once", "no_duplicate_subscription_messages")),
        Sentence("sec. 5",
                   "aCOLs of the host cluster are added in the subscription–tree, which has the maximum length .",
                   checked_by=("subscription_tree_links_are_host_acols_and_icols", "subscription_tree_is_shortest"),
                   reading="the lost maximum length is read as diam(G_a): in a shortest tree inside the host "
                           "cluster no broker is deeper than d_T, at most the tree's diameter"),
        Sentence("sec. 5",
                   "In this step, all iCOLs are added to the subscription–tree and the maximum length is .",
                   alternatives=True, checked_by=("subscription_tree_has_all_icols", "subscription_tree_links_are_host_acols_and_icols"),
                   reading="read literally (every iCOL of the SCOT: subscription_tree_has_all_icols, false for "
                           "m >= 3) and repaired (the m - 1 iCOLs per region leaving the host cluster, what "
                           "Algorithm 1 does); the lost maximum length, diam(G_a) + 1, follows from the shortest "
                           "trees"),
        Sentence("sec. 5",
                   "Contrary to traditional CPS systems, SBP in OctopiS is controlled, which always generates a "
                   "unique subscription–tree for a subscription issued from a broker.",
                   checked_by=("subscription_tree_links_are_host_acols_and_icols", "subscription_tree_is_shortest"),
                   reading="'unique' read as: the same tree in every delivery order; the two properties together "
                           "fix every broker's last hop (host-cluster parent one hop closer in the tree, secondary "
                           "parent the region's host-cluster broker)"),
        Sentence("sec. 5", "Uneven load in brokers or links does not effect structure or length of a "
                             "subscription–tree.",
                   checked_by=("subscription_tree_is_shortest", "subscription_tree_links_are_host_acols_and_icols"),
                   reading="uneven load read as any delivery order of the messages in flight"),
        Sentence("sec. 5", "This pattern of subscription broadcast does not generate duplicates.",
                   checked_by=("no_duplicate_subscription_messages", "every_broker_receives_the_subscription_once")),
        Sentence("sec. 5",
                   "The subscription–trees in clustered SCOT require no updates in secondary brokers when a "
                   "subscriber relocates to some other broker in the same cluster as the second step of SBP does "
                   "not change.",
                   checked_by=("subscription_tree_links_are_host_acols_and_icols",),
                   reading="relocation is not modelled; judged as: a secondary broker's last hop is its region's "
                           "host-cluster broker whichever broker of that cluster hosts the subscriber, so it is "
                           "the same for every host in the cluster"),
        Sentence("sec. 5", "This provides robust fault tolerance when a broker fails for some reasons …",
                   why="fault tolerance is out of the paper's scope (its own words) and not modelled"),

        # ------------------------------------------------------------------ sec. 6.1
        Sentence("sec. 6.1",
                   "SBP in unclustered SCOT is uncontrolled and lengths of routing paths satisfy the relation:",
                   why="the relation was lost in extraction; " + BASELINE.format(p="subscription_tree_is_shortest")),
        Sentence("sec. 6.1",
                   "For a large network, where a large number of brokers may host interested subscribers, "
                   "BID–based routing is not scalable because of additional payload and impeding in-broker "
                   "processing in matching process.",
                   why="payload size and matching cost are not modelled; a claim about the baseline"),

        # ------------------------------------------------------------------ sec. 6.2
        Sentence("sec. 6.2",
                   "Static Notification Routing (SNR) algorithm uses subscription–trees of shortest lengths for "
                   "routing notifications in a clustered SCOT.",
                   about=SNR_PART, checked_by=("notification_takes_shortest_paths", "subscription_tree_is_shortest")),
        Sentence("sec. 6.2 (i)",
                   "The host cluster of the publisher is the only target cluster, and therefore lengths of the "
                   "routing paths satisfy the relation: … where and are any brokers in the same cluster.",
                   checked_by=("notification_takes_shortest_paths",),
                   reading="the lost relation is read as: a copy's hop count is d_T(x, y) <= diam(G_a); judged "
                           "as every copy taking exactly the SCOT distance"),
        Sentence("sec. 6.2 (ii)",
                   "At least one interested subscriber is hosted by a secondary cluster and therefore lengths of "
                   "the routing paths satisfy the relation: … where and are any brokers in a clustered SCOT.",
                   checked_by=("notification_takes_shortest_paths",),
                   reading="the lost relation is read as: hop count d_T(x, y) + [i != j] <= diam(G_a) + 1; "
                           "judged as every copy taking exactly the SCOT distance"),
        Sentence("sec. 6.2",
                   "No loops appear and no path identifications are required because each cluster is an acyclic "
                   "overlay (eliminating I4).",
                   about=SNR_PART, checked_by=("no_broker_receives_a_notification_twice", "notification_delivered_exactly_once")),
        Sentence("sec. 6.2 Fig. 6",
                   "B(f,2) creates two additional copies of the notification to forward to B(f,1) and B(f,0) in "
                   "the TSCs. For S1 and S2 only one copy of the notification is forwarded to B(f,0) to avoid "
                   "duplicates.",
                   why=FIGURE + " (Fig. 6); the rule it illustrates is judged in the getDistinctSubs entry"),
        Sentence("sec. 6.2 Fig. 6", "Note that P2 has no primary target cluster, while P3 has no TSC.",
                   why=FIGURE + " (Fig. 6)"),
        Sentence("sec. 6.2 Algorithm 3",
                   "The method getDistinctSubs assures that only one copy of notification n is forwarded onto a "
                   "next destination link.",
                   about=SNR_PART, checked_by=("no_broker_receives_a_notification_twice",)),

        # ------------------------------------------------------------------ sec. 6.3
        Sentence("sec. 6.3",
                   "As SBP generates only one subscription–tree per subscription, dynamic routing is difficult in "
                   "broker-based CPS systems and never supported before.",
                   why=PRIORITY),
        Sentence("sec. 6.3",
                   "Our approach is scalable because it does not require updates in routing tables and can reduce "
                   "delivery delays when a large number of notifications start accumulating in the output queues.",
                   why="scalability and delay are measured, not stated as a property; compared in docs/scot.md's "
                       "burst simulation, not judged by a check"),
        Sentence("sec. 6.3",
                   "If a publisher generates number of notifications in time window, and there are number of "
                   "target aCOLs and target iCOLs, the host broker of the publisher enqueue number of copies of "
                   "notifications.",
                   why="the symbols and the count were lost in extraction (read k (a + i)); no property counts "
                       "copies per time window"),
        Sentence("sec. 6.3",
                   "A High Rate Publisher (HRP) with a high value of can overwhelm brokers in a routing paths when "
                   "SNR algorithm is used.",
                   why="a queueing effect, simulated in docs/scot.md's burst scenario (SNR's target queues grow "
                       "with the HRP's rate), not judged by a check"),
        Sentence("sec. 6.3",
                   "The algorithm dynamically selects an unoverloaded iCOL, which may not be part of a "
                   "subscription–tree to the TSC. As parallel iCOLs are available in a clustered SCOT, one can be "
                   "selected without making updates in routing tables (partially eliminating I5).",
                   about=DNR_PART, checked_by=("step_keeps_every_target", "notification_delivered_exactly_once"),
                   reading="judged as: after DNR leaves the trees for another iCOL, every target cluster is "
                           "still served (by a copy or by the CBV) and every interested broker gets one copy"),
        Sentence("sec. 6.3",
                   "DNR adds at most one copy of a notification in the congested output queues of a target link "
                   "at a broker.",
                   about=DNR_PART, alternatives=True, checked_by=("at_most_one_copy_into_congested_queues", "step_one_copy_into_congested_icol_queues",
                               "step_one_copy_into_congested_queues"),
                   reading="three readings: per broker and notification over all its congested target queues "
                           "(at_most_one_copy_into_congested_queues), per copy a broker handles over its target "
                           "iCOLs only (step_one_copy_into_congested_icol_queues) or over every target link "
                           "(step_one_copy_into_congested_queues)"),
        Sentence("sec. 6.3",
                   "The algorithm sets the cluster index bits in to 1 to identify those TSCs that are not "
                   "forwarded the notification due to overloaded target iCOLs.",
                   about=DNR_PART, checked_by=("step_keeps_every_target",)),
        Sentence("sec. 6.3",
                   "is an indication for a broker that the routing is dynamic, and a copy of the notification "
                   "should be forwarded to TSCs if unoverloaded target iCOLs are available.",
                   about=DNR_PART, checked_by=("step_keeps_every_target", "notification_delivered_exactly_once")),
        Sentence("sec. 6.3",
                   "Using this technique, DNR algorithm keeps the length of the congested output queues of an "
                   "overwhelmed broker to a minimum, and the load of forwarding the notification is shifted to "
                   "other brokers…",
                   about=DNR_PART, checked_by=("at_most_one_copy_into_congested_queues", "step_one_copy_into_congested_queues"),
                   reading="'to a minimum' read as at most one copy into congested queues per broker; the queue "
                           "lengths themselves are only simulated (docs/scot.md), not judged"),
        Sentence("sec. 6.3 Eq. 3",
                   "An output queue is congestion–free when is 1 and the queue length is 0.",
                   why="Eq. 3 was lost in extraction; its reconstruction (CE = n_in / n_out) is two congestion "
                       "rules of the burst simulation (reference.scot.CONGESTION_RULES), and the checks take "
                       "every set of congested queues instead, so no property judges the rule"),
        Sentence("sec. 6.3",
                   "OctopiS saves the values of and in a Link Status Table (LST) on each broker, and the values are "
                   "updated after each interval.",
                   why="the link status table and time windows are not in the spec (docs/scot.md: a queue is "
                       "congested or not per run); only the burst simulation keeps one"),
        Sentence("sec. 6.3 Case I",
                   "When the output queue of at least one target iCOL is uncongested …, DNR algorithm does not "
                   "enqueue a notification in the congested output queues of the target iCOLs. Instead, only one "
                   "copy of the notification is enqueued in the uncongested output queue of the unoverloaded "
                   "target iCOL.",
                   about=DNR_PART, checked_by=("step_one_copy_into_congested_icol_queues", "step_keeps_every_target",
                               "no_broker_receives_a_notification_twice"),
                   reading="the sentence says zero copies into congested iCOL queues; the step property bounds "
                           "them by one, and step_keeps_every_target judges that the CBV still covers the "
                           "skipped TSCs; 'only one copy' on the free iCOL is judged by no broker receiving it "
                           "twice (dnr-two-copies puts n and n_CBV there; dnr-tree-icols, taking every tree iCOL "
                           "as a target iCOL, sends a broker two copies with nothing congested)"),
        Sentence("sec. 6.3 Case I",
                   "If more than one unoverloaded target iCOL is available at a broker, is forwarded onto the "
                   "target iCOL, which has the least value of .",
                   why="a tie-break whose compared quantity was lost in extraction (presumably Eq. 3's congestion "
                       "element); the spec takes it as a parameter (`choose`) and the exhaustive DNR search tries "
                       "every choice among the candidates, so no verdict rests on which one is least"),
        Sentence("sec. 6.3 Case I",
                   "The number of notifications added to the output queues of the target links in interval is , "
                   "where is the number of unoverloaded target iCOLs and .",
                   why="the formula was lost in extraction; no property counts copies per time window"),
        Sentence("sec. 6.3 Case I Fig. 7(b)",
                   "Since the output queue of the iCOL is uncongested, B(b, 1) sets the index bit of to 0, removes "
                   "the from the notification as all index bits in are zero, and forwards the notification to "
                   "B(b, 0) and B(c, 1).",
                   why=FIGURE + " (Fig. 7(b))"),
        Sentence("sec. 6.3 Case I Fig. 7(b)",
                   "To forward one notification from P to interested subscribers, each of SNR and DNR algorithms "
                   "generate 6 IMs…",
                   why=FIGURE + " (Fig. 7(b)); this project asks the general question per notification "
                   "(dnr_costs_no_more_messages_than_snr), which the paper does not claim; read line by line, "
                   "Algorithm 4's description (dnr-two-copies) sends one message more here"),
        Sentence("sec. 6.3 Case I Fig. 7(b)",
                   "…the dynamic routing path for S1 contains 4 brokers, which is one more than the number of "
                   "brokers in path adopted by SNR algorithm.",
                   why=FIGURE + " (Fig. 7(b)); DNR leaves shortest paths on purpose and is not held to them"),
        Sentence("sec. 6.3 Case II",
                   "When the output queues of all target iCOLs are congested and at least one output queue of a "
                   "target aCOL is uncongested, DNR algorithm uses the target aCOLs to find unoverloaded target "
                   "iCOLs. is added in the uncongested output queue of the target aCOL.",
                   about=DNR_PART, checked_by=("step_keeps_every_target", "step_one_copy_into_congested_icol_queues")),
        Sentence("sec. 6.3 Case II",
                   "(here is zero as no copy of the notification is added into the congested output queues of the "
                   "target iCOLs)",
                   checked_by=("step_one_copy_into_congested_icol_queues",),
                   reading="the formula it qualifies was lost; 'zero' is judged against the bound of one copy "
                           "into congested target-iCOL queues per copy handled"),
        Sentence("sec. 6.3 Case II Fig. 7(c)",
                   "To forward one notification in this case, DNR algorithm generates 4 IMs, while SNR algorithm "
                   "generates 6 IMs.",
                   why=FIGURE + " (Fig. 7(c)); this project asks the general question per notification "
                   "(dnr_costs_no_more_messages_than_snr), which the paper does not claim"),
        Sentence("sec. 6.3 Case II Fig. 7(c)",
                   "Furthermore, two overloaded iCOLs are excluded from the dynamically generated routing paths.",
                   why=FIGURE + " (Fig. 7(c))"),
        Sentence("sec. 6.3 Case III",
                   "If all target links are overloaded, is forwarded onto the least loaded target iCOL. … is not "
                   "added into the output queue of a target aCOL even if it is the least overloaded link.",
                   about=DNR_PART, checked_by=("step_keeps_every_target", "step_one_copy_into_congested_queues",
                               "notification_delivered_exactly_once"),
                   reading="two ways: dnr-skip-congested-acols and dnr-two-copies (the target aCOL gets no copy "
                           "at all, so a subscriber behind it can be missed) and dnr-icols-only and dnr-tree-icols (the "
                           "aCOL keeps SNR's copy and only the CBV goes by the iCOL, so two copies can enter congested "
                           "queues)"),
        Sentence("sec. 6.3 Case III",
                   "The number of notifications added to the output queues of the target links in interval is .",
                   why="the formula was lost in extraction; no property counts copies per time window"),
        Sentence("sec. 6.3 Case III Fig. 7(d)",
                   "The number of IMs generated by SNR and DNR algorithms in this case are 6 and 5 respectively.",
                   why=FIGURE + " (Fig. 7(d)); this project asks the general question per notification "
                   "(dnr_costs_no_more_messages_than_snr), which the paper does not claim"),
        Sentence("sec. 6.3 Case III Fig. 7(d)",
                   "Additionally, the generated dynamic routing path for S1 has 3 additional brokers.",
                   why=FIGURE + " (Fig. 7(d)); DNR is not held to shortest paths"),
        Sentence("sec. 6.3 Algorithm 4",
                   "A copy of for each unoverloaded target link is added in the next destination list DL (lines "
                   "22-24).",
                   about=DNR_PART, checked_by=("step_keeps_every_target", "notification_delivered_exactly_once"),
                   reading="as described (dnr-skip-congested-acols and dnr-two-copies: no copy on a congested "
                           "target link) and as DNR touching only iCOLs (dnr-icols-only and dnr-tree-icols: every "
                           "target aCOL keeps SNR's copy)"),
        Sentence("sec. 6.3",
                   "DNR is a best–effort algorithm … The algorithm does not guarantee finding an unoverloaded "
                   "target iCOL, even if one exists.",
                   why="a disclaimer: it asserts no guarantee, so there is nothing to judge"),
        Sentence("sec. 6.3",
                   "Forwarding the on such links can generate loops among different clusters (OctopiA_TR, ).",
                   why="about a variant DNR does not use (the CBV over non-target aCOLs), argued in a technical "
                       "report; not modelled (dnr-tree-icols loops among clusters over target iCOLs instead: "
                       "docs/scot.md)"),
        Sentence("sec. 6.3",
                   "DNR algorithm currently does not support intra–cluster dynamic routing, and this is the reason "
                   "that OctopiS eliminates I5 only partially.",
                   why="a statement of scope, not a property; it is what the dnr-icols-only reading rests on "
                       "(target aCOLs keep SNR's copy)"),

        # ------------------------------------------------------------------ sec. 7.1-7.2
        Sentence("sec. 7.1 Fig. 8",
                   "factor of is an acyclic topology of 15 brokers (5 inner brokers … and 10 edge brokers), while "
                   "factor has 5 brokers, which generates number of secondary neighbours for each broker in .",
                   why="the evaluation SCOT, rebuilt in docs/scot.md (every one of the 482 15-vertex trees with 5 "
                       "inner and 10 edge vertices, x K_5), not judged by a check"),
        Sentence("sec. 7.1",
                   "This results in 25 inner brokers and 50 edge brokers (for a total of 75 brokers), forming 5 "
                   "clusters and 15 regions in .",
                   why="arithmetic on the evaluation SCOT (15 x 5 brokers, 70 aCOLs and 150 iCOLs), reproduced in "
                       "docs/scot.md, not judged by a check"),
        Sentence("sec. 7.1",
                   "OctopiS was deployed on a cluster of 35 physical computing nodes, where each node had one quad "
                   "core processor of 2.4 GHz with 4 GB RAM…",
                   why="a testbed setting this project does not have"),
        Sentence("sec. 7.1",
                   "We used a dataset of 500 stock symbols from Yahoo Finance!, where each stock notification had "
                   "10 distinct attributes. … each subscriber registered one subscription with 2% selectivity.",
                   why="a workload setting; the reproduction keeps the 2% selectivity (reproduce.py) but not the "
                       "dataset, and no check judges it"),
        Sentence("sec. 7.2",
                   "Since the SBP in a clustered SCOT generates subscription–trees of shortest lengths, it is "
                   "important to measure the difference…",
                   checked_by=("subscription_tree_is_shortest",)),
        Sentence("sec. 7.2",
                   "As the average length of subscription–trees for BID–based routing is higher than a clustered "
                   "SCOT for SNR and DNR algorithms…",
                   why="reproduced in docs/scot.md (equal lengths with equal link delays, longer for flooding "
                       "only under uneven delays), not judged by a check"),
        Sentence("sec. 7.2",
                   "BID–based routing is expected to have less matching delay as the matching is done at only the "
                   "brokers which host publishers and interested subscribers.",
                   why="matching is not modelled (every subscriber matches every notification)"),
        Sentence("sec. 7.2",
                   "As the average length of subscription–trees in clustered SCOT is less than in unclustered "
                   "SCOT, the number of IMs generated by SNR and DNR algorithms is expected to be less than "
                   "BID–based routing algorithm.",
                   why="reproduced in docs/scot.md (not borne out: BID sends -16.1% to +3.8% against SNR), not "
                       "judged by a check"),
        Sentence("sec. 7.2",
                   "These techniques can be used with clustered SCOT as each cluster is an acyclic overlay.",
                   why="covering is not modelled"),

        # ------------------------------------------------------------------ sec. 7.3 subscriber scalability
        Sentence("sec. 7.3 Fig. 9(a)",
                   "Fig. 9(a) shows that the number of IMs generated by SBP in clustered (legends SNR, and DNR) are "
                   "89% less than in unclustered (legend BID).",
                   reproduced=fewer_sbp_messages),
        Sentence("sec. 7.3",
                   "The average length of the subscription–trees generated by OctopiS is 14% less than the PADRES.",
                   why="reproduced in docs/scot.md (0% with equal link delays; 14% at a delay spread of about "
                       "5.8), not judged by a check"),
        Sentence("sec. 7.3",
                   "Furthermore, almost 80% of the generated IMs are used to detect and discard duplicates in "
                   "unclustered (Li_ADAP, ).",
                   reproduced=duplicate_share),
        Sentence("sec. 7.3",
                   "OctopiS uses a pattern of subscription broadcast that does not generate duplicates and extra "
                   "IMs.",
                   checked_by=("no_duplicate_subscription_messages", "every_broker_receives_the_subscription_once")),
        Sentence("sec. 7.3 Fig. 9(b)",
                   "Fig. 9(b) shows that the average subscription delay in clustered is 77% less than the "
                   "unclustered .",
                   why=TESTBED + "; docs/scot.md finds link delays alone favour flooding"),
        Sentence("sec. 7.3 Fig. 9(b)",
                   "Importantly, there is no difference in subscription delay when SNR and DNR algorithms are used, "
                   "since SBP does not use inter-cluster dynamic routing even if some output queues are congested.",
                   why=TESTBED),
        Sentence("sec. 7.3",
                   "This approach generates subscription–trees of shortest lengths even if some links are "
                   "overloaded.",
                   checked_by=("subscription_tree_is_shortest",),
                   reading="overloaded links read as any delivery order of the messages in flight"),
        Sentence("sec. 7.3 Fig. 9(b)",
                   "The average subscription delay in unclustered and clustered is nearly constant.",
                   why=TESTBED),
        Sentence("sec. 7.3 Fig. 9(c)",
                   "More specifically, SNR and DNR algorithms reduce the notification delay by 47% when compared "
                   "with BID–based routing algorithm.",
                   why=TESTBED),
        Sentence("sec. 7.3 Fig. 9(c)",
                   "Delay in static and dynamic routing is almost the same as this experiment does not generate "
                   "dynamic routing paths for small workloads.",
                   why=TESTBED),
        Sentence("sec. 7.3 Fig. 9(d)",
                   "Fig. 9(d) shows that the number of IMs generated by the same number of notifications (1000 per "
                   "publisher) in SNR and DNR algorithms is 12% less than BID–based approach.",
                   why="a count on the paper's testbed workload, which this project cannot refute: its simulation "
                       "in docs/scot.md does not reproduce it (BID sends 0.4-16% fewer messages than SNR with equal "
                       "delays, -2.7% to +3.8% with uneven ones), a model of the workload, not the testbed"),
        Sentence("sec. 7.3 Fig. 9(d)",
                   "The difference between the number of generated IMs decreases with the increase in the number "
                   "of subscribers…",
                   why="the trend shows in docs/scot.md's SNR vs BID table (the gap shrinks toward 0 as "
                       "subscribers grow, though with the opposite sign), not judged by a check"),
        Sentence("sec. 7.3 Fig. 10(a)",
                   "Fig. 10(a) shows that the average matching delay in BID–based routing is 25% less than SNR and "
                   "DNR algorithms, and increase almost linearly.",
                   why=TESTBED + "; matching is not modelled"),
        Sentence("sec. 7.3 Fig. 10(a)",
                   "The difference between matching delays in the three algorithms decrease with increase in the "
                   "number of subscribers…",
                   why=TESTBED + "; matching is not modelled"),

        # ------------------------------------------------------------------ sec. 7.3 publisher scalability
        Sentence("sec. 7.3 Fig. 10(b)",
                   "Fig. 10(b) shows that the average notification delay in SNR and DNR algorithms is 42% less than "
                   "BID–based routing algorithm.",
                   why=TESTBED),
        Sentence("sec. 7.3 Fig. 10(c)",
                   "…the number of IMs generated by BID–based routing is 36.4% higher than SNR and DNR algorithms "
                   "(Fig. 10(c)).",
                   why="a count on the paper's testbed workload, which this project cannot refute: its simulation "
                       "in docs/scot.md does not reproduce it (BID sends -16.1% to +3.8% against SNR), a model of the "
                       "workload, not the testbed"),
        Sentence("sec. 7.3 Fig. 10(d)",
                   "The average matching delay in SNR and DNR algorithms is 265% higher than BID–based algorithm "
                   "(Fig. 10(d)).",
                   why=TESTBED + "; matching is not modelled"),
        Sentence("sec. 7.3 Fig. 10(d)",
                   "As the number of subscribers is constant, the matching delays introduced by three algorithms "
                   "is linear.",
                   why=TESTBED + "; matching is not modelled"),

        # ------------------------------------------------------------------ sec. 7.3 stability analysis
        Sentence("sec. 7.3 Fig. 11",
                   "Fig. 11 shows that DNR algorithm stabilized OctopiS before SNR algorithm, while BID–based "
                   "routing algorithm is not able to stabilize PADRES for the same workload.",
                   why="a burst on the testbed; docs/scot.md's scaled-down simulation (3,000 HRP notifications, "
                       "not 100K) drains all three, not judged by a check"),
        Sentence("sec. 7.3 Fig. 11",
                   "On average, in the first 18 minutes and 30 seconds, the maximum delay of a notification (out "
                   "of 1000) is the same in the three routing algorithms and no tendency toward stability is "
                   "observed.",
                   why=TESTBED),
        Sentence("sec. 7.3",
                   "The average value of of target links at the brokers in routing paths of notifications from the "
                   "HRP when DNR is used is 48% less than SNR and 59% less than BID–based routing algorithms.",
                   why="compared in docs/scot.md's burst simulation (not reproduced: DNR's target queues there "
                       "are about 4.5% and 73% longer than SNR's and BID's), not judged by a check"),
        Sentence("sec. 7.3",
                   "There are 5 target clusters of the HRP and DNR tends to add the minimum number of copies of a "
                   "notification when the output queues of the target links are congested.",
                   about=DNR_PART, checked_by=("at_most_one_copy_into_congested_queues",),
                   reading="'the minimum number of copies' read as at most one copy into congested queues per "
                           "broker and notification"),
        Sentence("sec. 7.3",
                   "The average notification delay in DNR algorithm when the notification rate is 100K is 13%, and "
                   "58% less than SNR, and BID–based routing algorithms, respectively. Similar improvements, when "
                   "the rates are 80K, 60K npm, are 12.1% and 53%, and 11% and 49.2%, respectively.",
                   why="compared in docs/scot.md's burst simulation (averaged over the rates DNR is about 6% "
                       "below SNR and 5% below BID: the direction agrees, the sizes do not), not judged by a check"),
        Sentence("sec. 7.3",
                   "On average, for the three simulations, DNR algorithm stabilizes the system 239 seconds before "
                   "SNR algorithm and generates only 0.32% IMs more than SNR and 17.2% less than BID–based routing "
                   "algorithms.",
                   why="compared in docs/scot.md's burst simulation (about +0.0% against SNR, and about 15.7% "
                       "more than BID rather than 17.2% fewer), not judged by a check"),
        Sentence("sec. 7.3",
                   "This shows that our approach of adding at most one copy of a notification when the output "
                   "queues are congested significantly reduces delivery delay and queue length.",
                   about=DNR_PART, checked_by=("at_most_one_copy_into_congested_queues",),
                   reading="only the premise (at most one copy into congested queues) is judged; the effect on "
                           "delay and queue length is simulated in docs/scot.md, not judged"),
        Sentence("sec. 7.3",
                   "…the number of notifications that have delivery delays less than 1 second in DNR, SNR and "
                   "BID–based routing algorithms are 44.2%, 39% and 28%, respectively.",
                   why="compared in docs/scot.md's burst simulation (about 95% for all three there), not judged "
                       "by a check"),
        Sentence("sec. 7.3",
                   "The performance difference between DNR and SNR algorithms decreases with an increase in the "
                   "number of HRPs that start sending notifications simultaneously.",
                   why=TESTBED + "; the simulation runs one HRP"),
        Sentence("sec. 7.3",
                   "This indicates that the improvement due to inter-cluster dynamic routing in OctopiS diminishes "
                   "when more congested output queues and overloaded iCOLs appear.",
                   why=TESTBED + "; a trend over several HRPs, and the simulation runs one"),

        # ------------------------------------------------------------------ sec. 8
        Sentence("sec. 8", "OctopiS offers inter-cluster dynamic routing without requiring updates in routing "
                             "tables.",
                   about=DNR_PART, checked_by=("step_keeps_every_target", "notification_delivered_exactly_once"),
                   reading="as in sec. 1: with the trees fixed, DNR still serves every target"),
        Sentence("sec. 8", "OctopiS neither generates redundant IMs or duplicates in SBP nor requires BIDs.",
                   checked_by=("no_duplicate_subscription_messages", "every_broker_receives_the_subscription_once")),
        Sentence("sec. 8",
                   "Notifications are delivered using subscription–trees of shortest lengths and without requiring "
                   "unique identifications to identify routing paths to prevent loops.",
                   about=SNR_PART, checked_by=("notification_takes_shortest_paths", "no_broker_receives_a_notification_twice")),
        Sentence("sec. 8",
                   "Brokers in SCOT overlay are decoupled and aware of their direct neighbours only, which requires "
                   "a very low topology maintenance cost.",
                   why="maintenance cost is not modelled; the spec's per-broker steps read only a broker's "
                       "neighbours by construction"),
        Sentence("sec. 8", "All these properties make OctopiS scalable and suitable for large content-based "
                             "routing networks.",
                   why="a summary judgement of scalability, not a checkable property"),

        # ------------------------------------------------------------------ sec. 9
        Sentence("sec. 9",
                   "…the first (subscription–based) CPS system, OctopiS, that offers inter–cluster dynamic routing "
                   "of notifications without requiring updates in routing tables.",
                   why=PRIORITY + " (the no-update part is judged in the sec. 1 and sec. 8 entries)"),
        Sentence("sec. 9",
                   "We further exploit the structuredness of clustered SCOT to generate subscription–trees of "
                   "shortest lengths, without generating extra IMs to detect and discard duplicates.",
                   checked_by=("subscription_tree_is_shortest", "no_duplicate_subscription_messages")),
        Sentence("sec. 9",
                   "A static routing algorithm SNR uses subscription–trees of shortest lengths to send "
                   "notifications to interested subscribers, while DNR algorithm offers inter–cluster dynamic "
                   "routing using a lightweight bit vector mechanism.",
                   checked_by=("notification_takes_shortest_paths", "notification_delivered_exactly_once",
                               "step_keeps_every_target")),
        Sentence("sec. 9",
                   "Both algorithms do not require a global knowledge of an overlay topology and dynamic routing is "
                   "activated when congestion is detected in the output queues of the target links.",
                   why="by construction: the spec's routing steps (snr_next_hops, dnr_next_hops) read only a "
                       "broker's neighbours, trees and congested queues; no property judges it"),
        Sentence("sec. 9",
                   "The evaluation of SNR and DNR algorithms, and comparison with BID–based routing algorithm "
                   "indicates that OctopiS scales better than state–of–the–art and suitable for large network "
                   "settings.",
                   why="a summary of the testbed evaluation, not a checkable property"),
    ]
