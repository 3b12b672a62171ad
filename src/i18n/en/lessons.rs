//! Lesson texts (structure: `scenario::lessons::LESSONS`).
//!
//! Every time and actor named here is what the built-in scenario really does
//! with its default seed (checked with `paxos-island run --scenario …`).

use crate::i18n::{LessonText, StepText};

pub const LESSONS: &[LessonText] = &[
    // ─────────────────────────────────────────────────────────── why-paxos
    LessonText {
        id: "why-paxos",
        title: "Why Paxos, now?",
        summary: "The seminar's Part 0: the outages it starts from, the network programmers we all became, why consensus still matters — and a run without it.",
        steps: &[
            StepText {
                title: "Outages, and who programs the network",
                body: "The seminar opens with a worry: large system outages keep happening in Japan. It names two \
                       cases to start from, Mizuho Bank and JIP. Its outline says no more about either, and neither do \
                       we.\n\n\
                       Its diagnosis is about people as much as machines. The cloud and the smartphone, which arrived \
                       early in this century, made most of today's programmers network programmers, whether they see \
                       themselves so or not. The change came so fast that what it means technically has not been \
                       handed on, neither to the generation that programmed before the cloud nor to the one after.\n\n\
                       So the seminar asks one question head on: how can nodes spread over a network agree on one \
                       value, when nodes fail and messages are delayed?",
                ..StepText::EMPTY
            },
            StepText {
                title: "Consensus is not a thing of the past",
                body: "Paxos is Leslie Lamport's answer, published in 1998, and it is not a museum piece. Chubby, the \
                       distributed lock service that Google's GFS and BigTable both used, is an implementation of \
                       Paxos. Borg, the cluster manager once called Google's secret weapon, uses Paxos for its \
                       persistent store. Apache Mesos and ZooKeeper, beneath today's container orchestration, carry the \
                       same idea.\n\n\
                       That is the seminar's conclusion, and it runs through all its parts: distributed consensus is \
                       not a technology of the past; its importance carries on, in new guises, in today's systems.\n\n\
                       This course follows the seminar's order. First, why programming over a network is hard. Then the \
                       algorithm, told as Lamport's parliament and then defined: ballots, B1 to B3, the phases, faults. \
                       Then leases and the two-masters problem, transaction commit, and an article on where an LLM does \
                       not belong: inside a lease loop.",
                ..StepText::EMPTY
            },
            StepText {
                title: "A cut, under Paxos's rule",
                body: "First, the island as Paxos runs it. A partition cuts the five legislators into {Α, Β} and \
                       {Γ, Δ, Ε}: no messenger crosses. Α wants decree α and starts at once; Ε wants ε and will start \
                       at 600 ms. Paxos's rule: before anyone may call a vote, a majority of the five, three \
                       legislators, must answer.\n\n\
                       The run is paused at 0.5 s. Α's messengers to the other side were lost at the cut; only Β has \
                       answered Α. Nothing has been decided yet. The partition will heal at 4 s.",
                question: "What will the two sides do before the partition heals?",
                options: &[
                    "Each side passes its own decree: α for Α and Β, ε for the other three",
                    "Neither side passes anything: nobody can reach all five legislators",
                    "Γ, Δ and Ε pass ε; Α and Β pass nothing, since two of five is not a majority",
                ],
                explain: "Only the side of three decides. Ε asks at 600 ms; Γ, Δ and Ε answer and vote, ε is chosen \
                          at 900 ms, and it is in their ledgers by 1.09 s.\n\n\
                          On the other side Α hears only from itself and Β: two of five. Its hourglass runs out at \
                          1 s; it tries again at 1.51 s, hears from the same two, and gives up again at 2.51 s. \
                          Without a majority it never calls a vote, so α is passed nowhere. Α and Β have not learned \
                          ε yet, but nothing on their side contradicts it.\n\n\
                          A majority does not need everyone: three of five go on while two are cut off. And any two \
                          majorities share a legislator, so two sides can never both have one. The next step breaks \
                          exactly that rule.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Two halves, two laws",
                body: "What goes wrong without consensus? The same partition, {Α, Β} against {Γ, Δ, Ε}, but in \
                       this run each side may decide on its own: two legislators count as enough. \
                       That is a deliberate bug; the lessons to come show why a majority is needed.\n\n\
                       Α wants α, Ε wants ε. At 451 ms Α has passed α with Β's vote; at 854 ms Γ, Δ and Ε have \
                       chosen ε. By 1.1 s two ledgers say α and three say ε. When the partition heals at 4 s, nothing \
                       can reconcile them: the island has two laws where it should have one.\n\n\
                       A replicated database that lets each side of a cut take writes, or two servers that each \
                       believe they are the master, fail in just this way. Paxos exists so that this cannot happen, \
                       whatever the network does.",
                watch: "Watch α go into the ledgers of Α and Β, and ε into the other three; and the Invariants panel: \
                        Learners agree turns red at 451 ms, when Α learns a decree no majority voted for.",
                ..StepText::EMPTY
            },
        ],
    },
    // ───────────────────────────────────────────────────────────── latency
    LessonText {
        id: "latency",
        title: "1 ns = 1 s",
        summary: "Stretch the latency table until a nanosecond lasts a second, and see what an LLM call becomes.",
        steps: &[
            StepText {
                title: "Imagine a nanosecond lasting a second",
                body: "Computers work in nanoseconds; people do not. The seminar makes the gap visible with one trick: \
                       stretch every duration by a factor of 10⁹, so that one nanosecond lasts one second.\n\n\
                       The figures are the well-known latency numbers credited to Jeff Dean and Peter Norvig (c. 2012), \
                       as copied from Jonas Bonér's widely shared list. The table shows nine of its fourteen rows, one \
                       for each rung from a cache hit to an ocean crossing. Left out: a mutex lock (25 ns), compressing \
                       1 KB with Zippy (3 µs), and reading 1 MB in sequence from memory, SSD and disk (250 µs, 1 ms, \
                       20 ms; some copies say 30 ms for the disk), which measure throughput rather than one wait.\n\n\
                       On this scale a processor lives in seconds and minutes. A network round trip takes days. \
                       Crossing an ocean and back takes years. Keep that in mind whenever a program \"just calls\" \
                       something over the network.",
                ..StepText::EMPTY
            },
            StepText {
                title: "The table, stretched",
                body: "An L1 cache hit takes half a second. A branch mispredict takes 5 s, a trip to main memory \
                       1 min 40 s. Sending 1 KB over a gigabit link takes 2.8 hours, and a round trip inside one \
                       datacenter almost six days.\n\n\
                       A disk seek is 3.8 months. A packet from California to the Netherlands and back, 150 ms, \
                       becomes 150 million seconds: 4.75 years (a year is about 31.6 million seconds).\n\n\
                       The seminar's own figure is \"five years\": on this scale, it says, sending a packet over the \
                       network blocks for five years. It does not say which packet; reading its five years as this \
                       row, rounded, is ours.\n\n\
                       The last two rows are not Dean and Norvig's; they are our illustration. An LLM call of 1 s \
                       becomes 31.7 years, a call of 30 s about 951 years. Move the slider to try calls between 1 and \
                       30 seconds.",
                labels: &[
                    "L1 cache reference",
                    "Branch mispredict",
                    "L2 cache reference",
                    "Main memory reference",
                    "Send 1 KB over 1 Gbps",
                    "SSD 4 KB random read",
                    "Round trip in one datacenter",
                    "Disk seek",
                    "California → Netherlands → California",
                    "LLM call, 1 s",
                    "LLM call, 30 s",
                ],
                ..StepText::EMPTY
            },
            StepText {
                title: "What one decree costs",
                body: "Back to the island of Paxos that gives this course its name. Five legislators, Α to Ε; Α \
                       wants decree α passed. Its messengers take 60 to 140 ms each way, about as long as a packet \
                       crossing an ocean.\n\n\
                       Α may not simply declare α passed. First it must ask the others what they have already \
                       promised or voted, and hear back from a majority (three of five, itself included). Only then \
                       may it ask them to vote for α, and it knows that α has passed once a majority's votes have \
                       come back. Afterwards it tells everyone.\n\n\
                       The run is paused at the start: Α's first messengers are leaving.",
                question: "How many round trips (there and back) must Α wait for before it knows that α has passed?",
                options: &[
                    "One: it asks for votes, and a majority's answers come back",
                    "Two: one to hear from a majority, one to collect their votes",
                    "Three: one for each step, asking, voting and telling everyone",
                ],
                explain: "Two. Α's questions leave at 0 ms, and by 185 ms the answers of Α, Γ and Δ are back: the \
                          first round trip. Α asks for votes; at 300 ms a majority has voted and α has passed, but \
                          nobody knows it yet. At 368 ms the votes of Α, Δ and Ε are back: the second round trip, \
                          and now Α knows. Telling the others is a one-way trip that Α does not wait for.\n\n\
                          So one decree costs at least two round trips, however fast the processors are. At \
                          1 ns = 1 s, the 368 ms of this run become almost 12 years. Inside one datacenter, where a \
                          round trip takes 500 µs, the two still become almost 12 days.",
                ..StepText::EMPTY
            },
            StepText {
                title: "What this means for a lease",
                body: "A lease is renewed every few hundred milliseconds. On this scale that is one renewal every \
                       3 to 15 years: already a slow rhythm.\n\n\
                       Put an LLM call inside that loop and each turn waits decades, or up to a millennium. While it \
                       waits, the lease expires and someone else may take it. The last lesson, \"The lease loop is not \
                       a chat completion\", shows exactly that.\n\n\
                       Latency is the most visible difference between a local call and a remote one. As the next \
                       lesson shows, it is not the deepest.",
                ..StepText::EMPTY
            },
        ],
    },
    // ───────────────────────────────────────────────────────────── network
    LessonText {
        id: "network",
        title: "Why the network is different",
        summary: "Waldo et al. (1994): latency, memory access, partial failure, concurrency — and the seminar's SEQ → MT → MP → MM → MMU.",
        steps: &[
            StepText {
                title: "A Note on Distributed Computing",
                body: "In 1994 Jim Waldo and his colleagues at Sun Labs argued that treating local and remote objects \
                       as the same kind of thing is a mistake. Their note names four differences.\n\n\
                       Latency: a remote call is slower by orders of magnitude. It is the most visible difference and \
                       the least fundamental. Memory access: a pointer means nothing in another address space, so \
                       either the system mediates all access, or the programmer must see the difference.\n\n\
                       Partial failure: parts of the system fail independently, no common agent says what failed, and \
                       a dead link looks just like a dead host. Concurrency: there is no single operating system to \
                       order the calls or to recover. These two make it impossible to hide the network without \
                       unacceptable compromises.\n\n\
                       The seminar sums the hardships up as three: latency, partial failure and loss of state. Paxos \
                       is a way to agree in spite of all three.",
                ..StepText::EMPTY
            },
            StepText {
                title: "SEQ → MT → MP → MM → MMU",
                body: "The seminar traces how programs grew harder, in steps: one sequential program (SEQ), many \
                       threads (MT), many processes (MP), many machines (MM), and finally MMU, a step the seminar \
                       outline never spells out. The short glosses in the boxes are ours.\n\n\
                       Each step loses something, and the seminar says which: the move to threads loses order (of \
                       execution), the move to processes loses the single context, the move to machines loses the \
                       global state. In exchange come parallelism, process isolation, independent failure and scale.\n\n\
                       The losses and their steps are the seminar's own pairing. It lists the four gains without \
                       saying which step brings which: pairing them with the steps in order is our reading, and so is \
                       the blank under MMU, whose loss the outline does not state.",
                labels: &[
                    "SEQ — one sequential program",
                    "MT — many threads",
                    "MP — many processes",
                    "MM — many machines",
                    "MMU — not expanded in the seminar",
                    "order",
                    "a single context",
                    "global state",
                    "not stated",
                    "parallelism",
                    "process isolation",
                    "independent failure",
                    "scale",
                    "The seminar pairs each loss with its step; pairing the gains in order, and the blank under MMU, are ours.",
                ],
                ..StepText::EMPTY
            },
            StepText {
                title: "Lost, duplicated, overtaken",
                body: "Α proposes α and, 400 ms later, Γ will propose γ, on a bad network: a fifth of the messengers \
                       are lost, 15 % are duplicated and a fifth are held back and overtaken. Lamport's messengers \
                       behave just so: they may be slow, repeat themselves or never arrive, but they never garble a \
                       message.\n\n\
                       The run is paused at 150 ms. Α has asked everyone for promises, and the first are on their \
                       way back to it. No messenger has been lost yet.",
                watch: "Watch for messengers that fall (lost), split in two (duplicated) or arrive out of order.",
                question: "When the run is over, what will the five ledgers hold?",
                options: &[
                    "Only α: γ never passes, and a ledger the news does not reach stays blank, not wrong",
                    "Nothing: with a fifth of the messengers lost, no ballot can gather a majority",
                    "α in some and γ in others: with messengers lost, Γ cannot hear of α in time and passes γ",
                ],
                explain: "Δ's promise is lost, yet Α still gathers promises from Α, Β and Γ at 213 ms. An accept is \
                          duplicated; a vote on its way back is lost. At 289 ms a majority has voted and α is \
                          chosen; Α learns it at 415 ms.\n\n\
                          Γ starts ballot (2,Γ) at 400 ms. Every majority that could promise it includes someone who \
                          voted for α, so Γ could only have proposed α; it learns α from Α's announcement at 493 ms \
                          and stops. The announcement to Β is lost, and Β's ledger stays blank: slow, not wrong.\n\n\
                          Count the ledgers: four hold α in ink, Β's is blank, and none disagrees.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Safety does not wait for the network",
                body: "Every step of Paxos is optional: a legislator that receives no message simply does not act. So a \
                       lost messenger can stall the protocol, but it can never make two ledgers disagree. A duplicate \
                       changes nothing either: a promise or a vote delivered twice is the same promise or vote.\n\n\
                       Progress is another matter. It needs a majority that can talk for long enough. Lamport asks no \
                       more than that: if a majority stays in the Chamber and nobody enters or leaves for long enough, \
                       proposed decrees pass and reach every ledger present.\n\n\
                       Keep the two apart for the rest of the course. Safety (consistency) holds always, whatever the \
                       network does. Liveness (progress) needs the network to behave for a while.",
                ..StepText::EMPTY
            },
        ],
    },
    // ────────────────────────────────────────────────────────── parliament
    LessonText {
        id: "parliament",
        title: "The Paxos parliament",
        summary: "Lamport's island allegory: legislators, ledgers in ink, messengers — and what survives a crash.",
        steps: &[
            StepText {
                title: "An island of part-time legislators",
                body: "In \"The Part-Time Parliament\" (1998) Leslie Lamport describes Paxos, an Aegean trading island \
                       whose legislators keep wandering out of the Chamber. Still they must agree on the laws. Each \
                       part of the story stands for a part of a distributed system.\n\n\
                       Each legislator keeps a ledger. Decrees go into it in indelible ink and are never changed. At the \
                       back of the ledger it keeps notes, such as the last ballot it promised and its last vote; it \
                       may cross them out and write new ones, but like the ink they survive any absence. Loose slips \
                       of paper may be lost when the legislator leaves. \
                       Legislators talk only through messengers, and keep time with hourglasses whose error has a \
                       known bound.\n\n\
                       The parliament has two requirements. Consistency: no two ledgers ever disagree about a decree. \
                       Progress: if a majority stays in the Chamber and nobody enters or leaves for long enough, a \
                       proposed decree passes and reaches every ledger present.\n\n\
                       Before the parliament, a Synod of priests chose a single decree. That single-decree problem is \
                       consensus, and it is what this app runs: one decree, five legislators.",
                labels: &[
                    "the island of Paxos",
                    "a distributed system",
                    "a legislator",
                    "a process (node)",
                    "leaving the Chamber",
                    "a crash",
                    "the ledger, in indelible ink",
                    "stable storage, never changed (decrees)",
                    "notes at the back of the ledger, crossed out and rewritten",
                    "stable storage, overwritten (promise, last vote)",
                    "loose slips of paper",
                    "volatile memory",
                    "a messenger: late, repeated or lost",
                    "a network message, never corrupted",
                    "an hourglass with a known error bound",
                    "a timer with bounded drift",
                ],
                ..StepText::EMPTY
            },
            StepText {
                title: "A calm session",
                body: "Five legislators, Α to Ε, sit in the Chamber, and the messengers are quick (60 to 140 ms). Α \
                       wants decree α passed.\n\n\
                       Α sends a prepare (phase 1a) for ballot (1,Α) to everyone, itself included. Each legislator \
                       answers with a promise (1b). At 185 ms Α holds promises from a majority, Α, Γ and Δ, and asks \
                       everyone to vote for α (2a).\n\n\
                       At 300 ms a majority (Α, Β, Δ) has voted for α: α is chosen. Nobody knows it yet. Α finds out \
                       at 368 ms, when the votes of Α, Δ and Ε have reached it, and announces the decree. By 469 ms \
                       every ledger holds α in ink.",
                watch: "Follow Α's messengers out and back twice, then the announcement. Notice the gap between the \
                        moment α is chosen (300 ms) and the moment anyone knows it (368 ms).",
                ..StepText::EMPTY
            },
            StepText {
                title: "Your turn: send legislators away",
                body: "The same session, with every control unlocked. Click a legislator to see its ledger, and to \
                       crash it, bring it back or put it to sleep for a while.\n\n\
                       A crash is leaving the Chamber: the pencil slips (volatile memory) are lost; the ledger, its ink \
                       and the notes at its back (stable storage), stays. A pause is different: the legislator is still there, asleep, and wakes up \
                       with its old beliefs, as if no time had passed.\n\n\
                       Things to try: send away two legislators other than Α at the start, then three. Crash Α just \
                       after it asks for votes. Crash a legislator and bring it back. Whatever you do, the Invariants \
                       panel stays green: you can stop progress, never break consistency.",
                watch: "Watch a ledger when its legislator crashes: the pencil goes, the ledger stays. And watch whether α \
                        still passes with two, then three legislators away.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Back in the Chamber",
                body: "A partition splits {Α, Γ, Δ} from {Β, Ε}. On its side Α passes α with Γ and Δ (chosen at \
                       300 ms), and the three write it in ink. Β and Ε hear nothing.\n\n\
                       Then Α leaves for good (600 ms), and Γ and Δ leave too (700 ms). The partition heals at 1 s; Γ \
                       and Δ come back at 1.2 s. At 1.5 s Β, who wants β, starts ballot (1,Β) and asks everyone for \
                       promises.\n\n\
                       The run is paused at 1.55 s: Β's messengers are on their way to Γ, Δ and Ε.",
                question: "Β wants β, and Α, who proposed α, is gone for good. Will β pass?",
                options: &[
                    "Yes: Γ and Δ lost their memory when they left, so they promise as if nothing had happened",
                    "Not yet: nothing can pass until Α, who proposed α, comes back",
                    "No: Γ and Δ still have their votes for α, so Β must propose α",
                ],
                explain: "β does not pass. Γ promises at 1.57 s and Δ at 1.60 s, and each promise reports its vote for \
                          α in ballot (1,Α), read from the notes at the back of its ledger: leaving the Chamber cost \
                          them only their loose slips. At 1.68 s Β holds the promises of Β, Γ and Δ, so it is forced \
                          to propose α, not β. Β, Ε, Δ and Γ vote for α, and Β and Ε learn it by 1.95 s.\n\n\
                          Α was not needed: a majority that remembers its votes is enough.\n\n\
                          Had the votes been kept in pencil, Β would have passed β. To see it, choose \"forget on \
                          restart\" under \"Break the algorithm\": two decrees pass, and the invariants turn red.",
                ..StepText::EMPTY
            },
        ],
    },
    // ───────────────────────────────────────────────────────────── ballots
    LessonText {
        id: "ballots",
        title: "Ballots and B1, B2, B3",
        summary: "Lamport's three conditions on ballots, his Figure 1 in an editable explorer, and why they keep decrees consistent.",
        steps: &[
            StepText {
                title: "What a ballot is",
                body: "Lamport tells this part with the priests of the Synod; here they sit in the same five seats, Α \
                       to Ε. A ballot has a number, a decree, a quorum (a non-empty set of priests) and a set of \
                       voters. It succeeds exactly when every member of its quorum voted: quorum ⊆ voters. Numbers \
                       order the ballots; they say nothing about when a ballot took place.\n\n\
                       Three conditions on the set of ballots keep decrees consistent. B1: distinct ballots have \
                       distinct numbers. B2: any two quorums share at least one priest. B3: among the members of a \
                       ballot's quorum, find the highest-numbered vote cast in an earlier (lower-numbered) ballot; if \
                       there is one, the new ballot's decree must be that vote's decree.\n\n\
                       If nobody in the quorum has voted before, any decree will do: the seminar calls the ballot \
                       free. Otherwise it is forced. B3 is the heart of Paxos. The seminar's P3 (inherit the value of \
                       the highest-numbered proposal) says the same; \"Paxos Made Simple\" calls it P2c.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Lamport's Figure 1",
                body: "The explorer holds Lamport's Figure 1: five ballots among Α to Ε, with decrees α and β. Follow B3 \
                       down the table. Ballot 2 (α) is the earliest: free. Ballot 5 (β): nobody in its quorum had \
                       voted: free.\n\n\
                       Ballot 14 (quorum Β Δ Ε): only Δ had voted, in ballot 2, for α; so 14 is forced to α. Ballot 27 \
                       (quorum Α Γ Δ): Γ voted β in 5 and Δ voted α in 2; 5 is later, so 27 is forced to β. All three \
                       vote, and 27 succeeds. Ballot 29 (quorum Β Γ Δ): Β voted α in 14, Γ and Δ voted β in 27; 27 is \
                       the latest, so 29 is forced to β.\n\n\
                       The scan of the figure lost its voter marks. The voters of 2, 5, 14 and 27 follow from \
                       Lamport's own walkthrough. The voters of 29 are a reconstruction: here Γ alone, so that only \
                       27 succeeds, as in the paper.\n\n\
                       Now edit. Change ballot 14's decree to β: B3 breaks, because Δ's vote in 2 forces α. Or give \
                       ballot 14 the quorum Β Ε: it no longer meets 27's quorum, so B2 breaks, and now 14 succeeds with \
                       α while 27 succeeds with β. B3 still holds everywhere, yet two decrees have passed.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Why B1–B3 are enough",
                body: "Lamport's Lemma: if a ballot B succeeds, every later ballot has B's decree. Take the later \
                       ballots in order of number. Each one's quorum shares a priest with B's quorum (B2), and that \
                       priest voted in B. So the highest earlier vote in its quorum was cast in B or in a ballot in \
                       between, which by the same argument already carries B's decree. B3 forces the new ballot to \
                       that decree too.\n\n\
                       Theorem 1 follows: any two successful ballots have the same decree. In Figure 1, once ballot \
                       27 succeeds, every later ballot is pinned to β: ballot 29, and any ballot you add above it.\n\n\
                       Theorem 2 says the rules never deadlock: a new, higher ballot whose quorum meets all the others \
                       can always be added. The next lesson's protocol builds such ballots with messengers: unique \
                       numbers for B1, majorities for B2, and a first phase that collects the earlier votes for B3.",
                ..StepText::EMPTY
            },
            StepText {
                title: "B1–B3 in a real run",
                body: "A first look at that protocol: the same five, Α to Ε, now with messengers. Ballots are \
                       numbered (round, name), so no two share a number (B1), and a quorum is any three of the \
                       five, a majority (B2). A partition cut {Α, Β} off from {Γ, Δ, Ε}. On the larger side Ε's \
                       ballot (1,Ε) succeeded: its quorum, Γ, Δ and Ε, had all voted for ε by 900 ms. On the \
                       smaller side Α, who wants α, failed twice: two legislators are not a quorum.\n\n\
                       The partition healed at 4 s. At 5.24 s Α, still wanting α and knowing nothing of ε, starts \
                       ballot (3,Α). Its quorum will be the first three legislators whose promises reach it, itself \
                       included, and each promise reports that legislator's last vote. The run is paused at 5.3 s, \
                       with Α's requests on their way.",
                question: "Which decree will ballot (3,Α) carry?",
                options: &[
                    "ε: any three of the five include Γ, Δ or Ε (B2), and that vote for ε forces the ballot (B3)",
                    "α: Α and Β never heard of ε, and a ballot may carry its own proposer's decree",
                    "It depends on whose promises reach Α first: α, if the three have never voted",
                ],
                explain: "ε. At 5.38 s Α holds the promises of Α, Β and Δ. Α's and Β's report no vote; Δ's reports its \
                          vote for ε in ballot (1,Ε). That is the highest earlier vote in the quorum, so by B3 the \
                          ballot is forced: Α asks for ε, not α.\n\n\
                          It could not have gone otherwise. Only Α and Β have never voted, and a quorum needs three, \
                          so every quorum includes a member of (1,Ε)'s quorum (B2). That is Lamport's Lemma in a run: \
                          once (1,Ε) succeeded, every later ballot carries ε. By 5.64 s Α and Β have ε in ink too, \
                          and the island has one law.",
                ..StepText::EMPTY
            },
        ],
    },
    // ────────────────────────────────────────────────────────────── phases
    LessonText {
        id: "phases",
        title: "Phases 1, 2 and 3",
        summary: "Proposers, acceptors, learners; prepare and promise, accept and vote, announce — and the moment a proposer must give up its own decree.",
        steps: &[
            StepText {
                title: "Proposers, acceptors and learners",
                body: "Before the protocol, its cast. The seminar, as Lamport does, gives the nodes three roles. A \
                       proposer puts a decree forward and runs a ballot for it. An acceptor answers: it promises, and \
                       it votes, and it keeps both at the back of its ledger. A learner finds out which decree was \
                       chosen and writes it in ink. One legislator may play several roles.\n\n\
                       In this session all five legislators are acceptors and learners, and Α alone is also a proposer. \
                       The marks under each seat say so: a quill for a proposer, a ballot box for an acceptor, a book \
                       for a learner.\n\n\
                       The seminar then states three properties, P1, P2 and P3, and calls P3 the heart of consistency: \
                       a new proposal inherits the value of the highest-numbered proposal already accepted. Its outline \
                       does not spell out P1 and P2. In Lamport's \"Paxos Made Simple\", P1 says an acceptor must \
                       accept the first proposal it receives, and P2 says that once a value is chosen, every \
                       higher-numbered proposal that is chosen has that value. The seminar's P3 is his P2c, which is B3 \
                       of the ballots lesson. The next steps show the roles at work, phase by phase.",
                watch: "Find the quill, the ballot boxes and the books under the seats. Then play: the proposer Α \
                        sends prepares and accepts, every acceptor answers, and at the end every learner writes α in \
                        ink.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Phase 1: prepare and promise",
                body: "Phase 1 finds out what happened before. Α picks a ballot number, (1,Α): a round and its own \
                       name, so two proposers never use the same number (B1). It sends prepare (1a) to every \
                       legislator.\n\n\
                       A legislator that has not promised a higher ballot answers with a promise (1b): it will vote in \
                       no lower ballot, and it reports its last vote, if it has one. Before it replies it notes the \
                       promise at the back of its ledger. Not in ink, which Lamport keeps for decrees: a later, higher \
                       promise crosses it out. But it is on the ledger, not on a loose slip, so it survives a crash.\n\n\
                       Nobody has voted yet, so every promise says so. At 185 ms Α has promises from a majority: Α, Γ \
                       and Δ. A majority is what B2 needs, since any two majorities of five share a legislator.",
                watch: "Watch the prepares go out and the promises come back, each with its \"last vote\" (none here). \
                        Stop at 185 ms, when Α holds three promises.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Phase 2: accept and vote; phase 3: announce",
                body: "With a majority of promises, Α picks the decree. No promise reported a vote, so the ballot is \
                       free, and Α proposes its own decree, α. It asks everyone to vote for α in ballot (1,Α): accept \
                       (2a).\n\n\
                       A legislator votes unless it has promised a higher ballot since. It notes the vote at the back of \
                       its ledger, where a later vote may replace it, and tells Α: accepted (2b). At 300 ms a majority (Α, Β, Δ) has voted, and α is chosen, though \
                       nobody knows it yet.\n\n\
                       At 368 ms the votes of Α, Δ and Ε have reached Α. Now it knows, and it announces the decree to \
                       all. The seminar calls this announcement phase 3; in Lamport's parliament it is the Success \
                       message. By 469 ms every ledger holds α.",
                watch: "Watch the accepts go out and the votes come back. \"Chosen\" (a fact about the votes) comes \
                        before \"learned\" (a fact about someone's knowledge).",
                ..StepText::EMPTY
            },
            StepText {
                title: "Free or forced?",
                body: "A new run. Α starts ballot (1,Α) as before and, at 185 ms, asks for votes on α. At 260 ms Α \
                       leaves the Chamber. Its accepts are already on their way: the others vote for α, and at 300 ms \
                       a majority (Α, Β, Δ) has voted, so α is chosen. But every vote is sent to Α, who is gone, and \
                       nobody learns anything.\n\n\
                       At 1.5 s Γ, who wants its own decree γ, starts ballot (2,Γ). The run is paused at 1.6 s: Γ's \
                       prepares are arriving, and the first promises, from Β and Δ, are on their way back.",
                question: "Γ wants its own decree γ. Once it has a majority of promises, which decree will Γ ask the \
                           Chamber to vote on?",
                options: &[
                    "γ, its own decree: it started this ballot",
                    "α: the promises report Α's earlier vote, so B3 forces it",
                    "None: it must wait until Α comes back",
                ],
                explain: "At 1.68 s Γ has promises from Β, Γ and Δ. Each reports a last vote in ballot (1,Α), for α. \
                          The highest vote reported is for α, so the ballot is forced: Γ asks for α, not γ.\n\n\
                          Γ does not know whether α was chosen (it was, at 300 ms), and it does not need to: B3 keeps \
                          every later ballot safe either way. The legislators vote again for α, and by 1.97 s every \
                          ledger in the Chamber holds it.\n\n\
                          Waiting for Α would not help: a legislator that left may never return. A majority that \
                          remembers its votes is enough.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Break B3",
                body: "The same run, with one rule of the algorithm broken: the proposer ignores the votes reported in \
                       the promises and treats every ballot as free.\n\n\
                       Γ gets the same promises, all reporting α, and proposes γ anyway. At 1.78 s Γ, Ε and Δ have \
                       voted for γ. But α was chosen at 300 ms. Two decrees have been chosen, and the Agreement \
                       invariant breaks.\n\n\
                       Nobody in the Chamber notices: the ledgers fill with γ, and the α that a majority once voted \
                       for is gone without a trace. That is what B3 is for.",
                watch: "Watch the Invariants panel: Agreement turns red at 1.78 s, when the third vote for γ is cast.",
                ..StepText::EMPTY
            },
        ],
    },
    // ───────────────────────────────────────────────────── fault-tolerance
    LessonText {
        id: "fault-tolerance",
        title: "2F+1 survive F",
        summary: "With 2F+1 acceptors, F may fail and decrees still pass; one failure more stops progress, never safety.",
        steps: &[
            StepText {
                title: "Two of five away",
                body: "With 2F+1 acceptors, Paxos keeps working while F of them are down: here F = 2 of 5. Δ and Ε are \
                       away from the start.\n\n\
                       At 300 ms Α sends its prepares; those to Δ and Ε find nobody. Α, Β and Γ still make a \
                       majority: promises by 518 ms, α chosen at 598 ms, and α in the ink of Α, Β and Γ by 803 ms.\n\n\
                       Why a majority? Any two majorities of the same five share at least one legislator: that is B2. \
                       Gray and Lamport note that 2F+1 is also the fewest acceptors that can survive F failures \
                       without strict timing assumptions.",
                watch: "Watch the messengers to Δ and Ε vanish at the empty seats, while three legislators pass α on \
                        their own.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Three of five away",
                body: "Now Γ, Δ and Ε are away: F+1 = 3 failures, one more than five legislators can tolerate. Only Α \
                       and Β are in the Chamber. Α wants α and starts at 300 ms.\n\n\
                       The run waits at the start. Before you answer, think about what Α needs before it may ask \
                       anyone to vote.",
                question: "Three of five legislators are away. Will a decree pass?",
                options: &[
                    "Yes, eventually: Α keeps trying until it passes",
                    "No: two of five is not a majority, so ballots fail — but nothing unsafe happens",
                    "Yes, but two different decrees may pass",
                ],
                explain: "No decree passes. Α starts ballot (1,Α) at 0.3 s, (2,Α) at 1.81 s and (3,Α) at 5.54 s. Each \
                          time only Α and Β promise; the hourglass runs out after 1 s, Α waits a random while and \
                          tries again.\n\n\
                          Α never reaches phase 2: without a majority of promises it asks nobody to vote. No vote, no \
                          decree, and every invariant stays green. Paxos gives up progress rather than consistency. \
                          As soon as a third legislator returns, a ballot can succeed.",
                ..StepText::EMPTY
            },
            StepText {
                title: "A partition, then the heal",
                body: "A partition cuts {Α, Β} off from {Γ, Δ, Ε}. Α starts ballot (1,Α) at once, but its messengers \
                       cannot cross, and two promises are not a majority.\n\n\
                       At 600 ms Ε starts ballot (1,Ε) on the majority side. Γ, Δ and Ε promise and vote, ε is \
                       chosen at 900 ms, and it is in their ink by 1.09 s. Α tries again at 1.5 s and fails again.\n\n\
                       The partition heals at 4 s. Α's next ballot, (3,Α), starts at 5.24 s. Δ's promise reports its \
                       vote for ε, so Α's ballot is forced to ε, and Α and Β learn ε by 5.64 s. The minority side \
                       never decided anything of its own, so there is nothing to undo.",
                watch: "Watch Α's hourglass run out while it is cut off; then, after the heal, Δ's promise bringing ε \
                        to Α.",
                ..StepText::EMPTY
            },
        ],
    },
    // ───────────────────────────────────────────────────────────── dueling
    LessonText {
        id: "dueling",
        title: "Dueling proposers",
        summary: "Two proposers can pre-empt each other for ever. Randomness or a president ends the duel; safety never depended on it.",
        steps: &[
            StepText {
                title: "Two proposers at once",
                body: "Α and Β both want their own decree, and every messenger takes exactly 100 ms. Α starts ballot \
                       (1,Α) at 0 ms; Β starts (1,Β), a higher ballot, at 50 ms. A proposer that sees a higher ballot \
                       gives its own up and, in this run, at once starts a higher one.\n\n\
                       At 150 ms Β's prepare reached Α before Α had collected its promises: Α gave (1,Α) up and \
                       started (2,Α). The run is paused at 200 ms. The promises for Β's (1,Β) are on their way back \
                       to Β, and Α's prepares for (2,Α) are on their way to everyone. The run lasts 6 s.",
                question: "Will a decree pass in the 6 s of this run?",
                options: &[
                    "Yes: Β's ballot is higher, its promises are nearly in, and β passes within half a second",
                    "No: each new ballot voids the other's before any vote is cast, again and again",
                    "Yes, both: α and β each pass in their own ballot, and the invariants turn red",
                ],
                explain: "Nothing passes. At 250 ms Α's (2,Α) reaches Β just ahead of the promises of Γ, Δ and Ε: Β \
                          gives (1,Β) up and starts (3,Β), which voids (2,Α) at 350 ms; Α answers with (4,Α), and so \
                          on, one ballot given up every 100 ms. In 6 s they start 61 ballots, and not one reaches \
                          phase 2.\n\n\
                          Nothing unsafe happens either: no two decrees, no broken promise. The protocol simply never \
                          finishes, and that is allowed. Fischer, Lynch and Paterson (FLP) showed that in a fully \
                          asynchronous system no deterministic algorithm can guarantee a decision once a process may \
                          fail.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Randomized backoff",
                body: "The same duel with one change: a pre-empted proposer waits a random while before it tries \
                       again.\n\n\
                       Α is pre-empted at 150 ms and waits. Nobody disturbs Β's ballot (1,Β): promises from Α, Β and \
                       Γ at 250 ms, β chosen at 350 ms, and β in every ledger by 550 ms.\n\n\
                       Randomness breaks the symmetry: two proposers that keep colliding become very unlikely. It \
                       does not make progress certain, only very likely.",
                watch: "Watch Α fall silent after it is pre-empted, long enough for Β's ballot to finish.",
                ..StepText::EMPTY
            },
            StepText {
                title: "A president",
                body: "In Lamport's complete protocol only a president starts ballots: the priest present whose \
                       name comes last in alphabetical order. All five are present here, so by his rule the president \
                       would be Ε, and Α and Β would send it the decrees they want. This run keeps it smaller: only Α \
                       and Β propose, and the later name of the two, Β, acts as the president.\n\n\
                       Α stays quiet while it hears Β. Β's ballot (1,Β) passes β at 350 ms, and every ledger has it \
                       by 550 ms. Α never starts a ballot.\n\n\
                       If the president leaves, someone must notice, by a timeout, and take over. For a while two \
                       legislators may both believe they are president. That costs only progress: their ballots are \
                       ordinary ballots, and B1–B3 still hold.",
                watch: "Watch Β do all the work, one ballot, two phases and one announcement, while Α never starts a \
                        ballot.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Leaders need time; safety does not",
                body: "Choosing a leader reliably needs something beyond pure message passing: timeouts (real time) or \
                       randomness. That is what FLP implies, and why Lamport's complete protocol assumes bounds: a \
                       messenger delivers within 4 minutes and a priest acts within 7. Under those bounds a single \
                       president passes a decree within 99 minutes, so progress is guaranteed once a majority has \
                       been present and undisturbed that long.\n\n\
                       Safety never depends on the election. A wrong timeout, two presidents, a president who is \
                       only asleep: each can delay a decree, none can make two ledgers disagree.\n\n\
                       Real systems rely on this split. Multi-Paxos keeps a stable leader that runs phase 1 once for \
                       many log slots, then only phase 2 for each new command. When the leader is in doubt, anyone \
                       may start a higher ballot, and B3 keeps it safe.",
                ..StepText::EMPTY
            },
        ],
    },
    // ───────────────────────────────────────────────────────── multi-paxos
    LessonText {
        id: "multi-paxos",
        title: "From one decree to a log: Multi-Paxos",
        summary: "A stable leader runs phase 1 once for every slot, then one phase 2 per command; a new leader recovers the slots in flight and fills the gaps with no-ops.",
        steps: &[
            StepText {
                title: "One phase 1, many slots",
                body: "The Synod chooses one decree. A replicated service needs a sequence of them: a log, slot 1, 2, 3 \
                       …, each slot its own Synod instance, applied in order to the same state machine on every \
                       replica (here a small key-value table). Paxos Made Simple (§3) shows the trick: ballots are \
                       shared by all slots, so a leader runs phase 1 once, for every slot from the first it has not \
                       seen chosen, and from then on each new command costs only phase 2.\n\n\
                       Three replicas Α, Β, Γ; two clients. Α is elected at 20 ms with ballot (1,Α). The clients' \
                       writes go into slots 1 to 4, two at a time (a pipeline: the leader does not wait for slot 1 \
                       before proposing slot 2). Reads are answered by the leader from its own copy.",
                watch: "Watch the log fill: a vote first (the 2b: a note at the back of the ledger), then ink once the slot is chosen, then \
                        underlined once it is applied. After 20 ms there is no more 1a or 1b: only 2a, 2b and \
                        heartbeats.",
                ..StepText::EMPTY
            },
            StepText {
                title: "The leader crashes with three slots in flight",
                body: "Five replicas. Α leads and has proposed x=1 in slot 1, y=2 in slot 2 and z=3 in slot 3 when it \
                       crashes at 215 ms. Its accepts for slots 1 and 3 reached the others, who voted (each wrote it at the back of its ledger). Its \
                       accept for slot 2 reached nobody: a one-way cut at that instant. So slot 2 holds a vote only \
                       in Α's own ledger, and Α is gone.\n\n\
                       Someone must take over: run phase 1 with a higher ballot for every slot from 1, and learn \
                       from the promises what may already have been chosen.",
                question: "What will the next leader write in slot 2?",
                options: &[
                    "y=2: the command Α was proposing there",
                    "A no-op: no promise reports a vote for slot 2, so it fills the gap with a command that does nothing",
                    "Nothing: it leaves slot 2 empty and carries on from slot 4",
                ],
                explain: "Β and Γ try first (from 0.82 s) and are refused: the others promised Α, their master, not to \
                          follow anyone else for the lease's term. Δ wins at 1.24 s with ballot (4,Δ). The promises \
                          report votes for x=1 in slot 1 and z=3 in slot 3 (ballot (1,Α)), so B3 forces them: Δ \
                          re-proposes both. Nobody reports a vote for slot 2, so any value is safe there — and Δ \
                          picks a no-op, because the log is applied strictly in order and a hole would stop every \
                          replica at slot 1.\n\n\
                          y=2 is not lost: C2 never got an answer, retries, and its write lands in slot 4 at 1.73 s. \
                          Δ takes new commands only after the recovered slots are chosen.",
                ..StepText::EMPTY
            },
            StepText {
                title: "A replica that falls behind",
                body: "Γ is cut off at 120 ms while Α and Β choose slots 1 to 4: two of three is a majority, so the \
                       log grows without it. At 0.7 s the partition heals. Γ's log is empty, but the leader's \
                       heartbeat tells it how far the log goes. Γ asks for the chosen slots it missed and applies \
                       them in order.",
                watch: "Watch Γ's row stay empty, then fill in one step at 0.75 s, in the same order as the others.",
                ..StepText::EMPTY
            },
        ],
    },
    // ───────────────────────────────────────────────────────── master-lease
    LessonText {
        id: "master-lease",
        title: "Two masters and the master lease",
        summary: "A leader that has been replaced may not know it; a read it serves alone is then stale. The master lease of Paxos Made Live and Chubby makes a read served alone safe.",
        steps: &[
            StepText {
                title: "Two masters, no lease",
                body: "Reads are the common case, and a leader that answers them from its own copy saves a round of \
                       Paxos per read. But is it still the leader? Three replicas, no lease. At 0.6 s Α is cut off \
                       together with client C1. Α still believes it leads. The other side elects Β at 1.15 s, and C2 \
                       writes x = 2 through Β at 1.84 s (slot 2). Nothing Α can see has changed.",
                question: "At 2.2 s C1 asks Α to read x. What does C1 get?",
                options: &[
                    "x = 2: Paxos keeps every replica's log the same",
                    "x = 1: Α answers from its own copy, which has never seen slot 2",
                    "No answer: Α cannot reach a majority, so it cannot answer anything",
                ],
                explain: "Α answers x = 1 at 2.21 s: a stale read, 0.37 s after x = 2 was written and acknowledged. The \
                          \"No stale reads\" rule turns red. Every slot still agrees on every replica — the log is \
                          safe; the read never went through the log.\n\n\
                          Sending every read through Paxos would fix it at the price of a round per read. Paxos Made \
                          Live (§5.2) and Chubby instead give the master a lease.",
                ..StepText::EMPTY
            },
            StepText {
                title: "The master lease",
                body: "The same partition, now with a master lease of T = 1 s. Each heartbeat asks the replicas to \
                       promise not to follow another master for T. The master counts its lease from before it \
                       asked, shortens it by the clock-drift bound and a margin, and serves reads alone only while \
                       a majority's promises last. A replica that promised refuses a new candidate until its \
                       promise runs out — so a new master is elected only after the old lease is over.\n\n\
                       At 0.6 s Α and C1 are cut off. It is 2.2 s now, and Β was elected at 2.15 s.",
                question: "C1 asks Α to read x. What happens?",
                options: &[
                    "Α answers x = 1, as before",
                    "Α's lease ran out at 1.45 s: it cannot answer alone, so C1 waits; after the heal, Β answers x = 2",
                    "Nobody can be elected while Α is alive, so x stays 1 for ever",
                ],
                explain: "Α stopped believing it held the lease at 1.45 s, by its own clock, before anyone else could \
                          have one. The others refused Β and Γ as candidates at 1.13–1.34 s because of their promises \
                          to Α; Β was elected at 2.15 s, after they ran out. At 2.21 s Α, without a lease, puts C1's \
                          read into the log (slot 2) — and cannot get a majority for it.\n\n\
                          The partition heals at 3.5 s; Α sees Β's higher ballot and steps down at 3.54 s. C1's \
                          retry reaches Β, which holds the lease and answers x = 2 at 3.74 s. Never two masters \
                          at once: look at the lease lanes, Α's ends before Β's begins.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Break it: a new master that does not wait",
                body: "The same run with a deliberate bug: replicas do not honour the promise they gave, and follow \
                       a new candidate at once. Β is elected while Α still believes in its lease.",
                watch: "Watch \"One master at a time\" turn red at 1.17 s: Β believes it holds the lease while Α's runs \
                        until 1.45 s. Two replicas could now both answer reads alone.",
                ..StepText::EMPTY
            },
        ],
    },
    // ─────────────────────────────────────────────────── where-paxos-lives
    LessonText {
        id: "where-paxos-lives",
        title: "Where Paxos lives",
        summary: "The seminar's Part 2: Chubby under GFS and BigTable, Borg, Mesos and ZooKeeper, Azure. A Chubby cell runs live — five replicas, a master lease, a fail-over, client sessions that outlive it, and a file server that refuses a stale sequencer.",
        steps: &[
            StepText {
                title: "Paxos beneath the systems",
                body: "Before its Part 3 explains how Paxos works, the seminar's Part 2 shows what it does in real \
                       systems. Chubby, the distributed lock service that Google's GFS and BigTable both used, is an \
                       implementation of Paxos. Borg, Google's cluster manager, called its secret weapon and kept \
                       kept unpublished for over ten years until it was first made public in 2015, uses Paxos for its persistent store. \
                       Apache Mesos, open source and inspired by Borg, elects its master through a ZooKeeper quorum. \
                       And in Azure the seminar shows replicated data nodes: reads from a primary, writes that follow \
                       a quorum.\n\n\
                       What this page runs, and what it only tells. It runs a small Chubby cell: a Multi-Paxos group \
                       whose master holds a master lease, client sessions kept alive by KeepAlives, locks whose \
                       sequencers a file server checks. Its files, events and caches are not simulated, and the times \
                       are shrunk to fit a screen. It does not run Borg, Mesos, ZooKeeper or Azure. The sources behind this course say what part consensus plays in \
                       them, not how each is built, and this lesson says no more than they do. In particular they do \
                       not describe the protocol ZooKeeper itself runs; the seminar says only that the same idea runs \
                       beneath Mesos and ZooKeeper.",
                ..StepText::EMPTY
            },
            StepText {
                title: "A cell at work: one master, clients by RPC",
                body: "The seminar draws Chubby as five servers, one of them the master, with clients that call it by \
                       RPC (p.72). The servers keep copies of one small database, and Paxos keeps the copies the \
                       same: every write becomes a command in a replicated log, one Synod instance per slot. That is \
                       Multi-Paxos, from the lesson \"From one decree to a log\". In Part 3's terms, the master is the \
                       one proposer that is active; every replica is an acceptor and a learner.\n\n\
                       This run has three replicas and two clients; the next step has five replicas. Α is elected at \
                       20 ms and holds a master lease of 1 s from 40 ms, renewed with every heartbeat. Writes go \
                       through phase 2: Α proposes, a majority votes. Reads do not: while its lease lasts, Α answers \
                       them alone, from its own copy. Chubby's master does the same.",
                watch: "Watch the clients send every request to Α. Each write costs a 2a and the 2b votes. The reads \
                        at 190 ms and 195 ms cost no message between replicas: Α answers x = 4 and z = 3 from its \
                        own copy.",
                ..StepText::EMPTY
            },
            StepText {
                title: "The master dies",
                body: "Five replicas now, as in a Chubby cell, with the same 1 s master lease: with each heartbeat, \
                       every replica promises to follow no other master for T = 1 s, by its own clock. Α is the \
                       master. Its last heartbeat reached the others at 130 ms; at 215 ms it crashes, in the middle \
                       of three writes. (What happens to those writes is the story of the lesson \"From one decree to \
                       a log\"; here, watch who holds the chair.)\n\n\
                       It is 0.8 s. The clients have tried Β, which sent them back to Α: Β has not yet noticed that \
                       Α is gone.",
                question: "When will the cell have a new master?",
                options: &[
                    "At about 0.82 s, when the first replica's election timer runs out: four replicas are alive, a clear majority",
                    "Not before 1.13 s: at 130 ms the replicas promised Α to follow no one else for 1 s, and they keep that promise although Α is dead",
                    "Never: only Α could give up its lease, and Α is gone",
                ],
                explain: "Β runs for master at 0.82 s and Γ at 1.02 s; every replica refuses both, because of its \
                          promise to Α. The promises end at 1.13 s. Δ runs at 1.22 s, is elected at 1.24 s with \
                          ballot (4,Δ), recovers the slots Α left, and holds the master lease from 1.26 s. Nobody \
                          takes a dead master's lease away: it runs out. About a second without a master is the \
                          price, and it is what makes a master that is only cut off, not dead, harmless (the lesson \
                          \"Two masters and the master lease\").\n\n\
                          Chubby works the same way: its replicas hold a new election only after their master leases \
                          lapse, and its paper reports elections of a few seconds (6 s and 4 s typical, up to 30 s \
                          seen). A new Chubby master also picks a new epoch number and rejects client calls that \
                          carry an older one. Here the epoch is the master's ballot: (4,Δ) is higher than (1,Α), so a \
                          replica that has promised Δ refuses anything from Α's old ballot. The next step shows what \
                          a fail-over means for the cell's clients.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Sessions that outlive their master",
                body: "A Chubby cell also looks after its clients. Each client has a session with the master, kept \
                       alive by KeepAlive calls; each one extends the session lease, and the master never shortens \
                       it. The client keeps its own, shorter estimate of when the lease ends: counted from before it \
                       asked, and shortened for clocks that may drift. When that estimate runs out, the session is in \
                       jeopardy: the client waits out a grace period, looking for a master. A master that answers in \
                       time makes it safe again; if none does, the session expires, and its locks with it.\n\n\
                       Chubby's defaults are a 12 s session lease and a 45 s grace period. This cell shrinks them to \
                       fit the screen: a session lease of 1 s, KeepAlives every 0.3 s, a grace period of 3 s, and \
                       the same 1 s master lease. C1 opens a session, takes lock 0 — generation 1 — and writes a to \
                       the file server F, which checks the sequencer with the cell and accepts it. Then, at 0.8 s, \
                       the master Α crashes.",
                watch: "Watch C1's lane in the sessions chart. At 1.67 s its own estimate runs out: jeopardy (orange). \
                        The replicas are still bound by their promises to Α; Δ is elected at 1.75 s and, not knowing \
                        what Α granted, assumes the longest session lease Α could have given. C1's KeepAlive reaches \
                        Δ at 1.96 s: safe again (green), under a new epoch, (4,Δ). At 2.9 s C1 writes b with the same \
                        generation 1. F asks the master it knew, Α, to check the sequencer: Α is gone, and the check \
                        is lost. When C1 tries again at 3.4 s, F is sent on to Δ and accepts b at 3.45 s: the session \
                        and its lock survived the fail-over.",
                ..StepText::EMPTY
            },
            StepText {
                title: "A paused lock holder and its stale sequencer",
                body: "A sequencer holds a lock's name, its mode and a generation number that grows with every grant. \
                       A server checks it and refuses stale requests, so it works as a fencing token. In this cell \
                       the file server F checks it twice: against the highest generation it has seen for the lock, \
                       and live, by asking the cell (Chubby's CheckSequencer) whether it is still the lock's grant.\n\n\
                       C1 holds lock 0 with generation 1 and has written a to F. At 0.9 s it is paused for 3 s, like \
                       a long garbage collection, just before its next write. The master hears no KeepAlive, and at \
                       1.82 s ends C1's session through the log; that frees lock 0, and C2 takes it at 2.54 s with \
                       generation 2. C2 has not written yet. It is 3.9 s: C1 has just woken, still believing it \
                       holds the lock, and sent b to F with generation 1.",
                question: "What will F do with C1's write?",
                options: &[
                    "Accept it: F has seen no generation above 1, so 1 is still the newest it knows",
                    "Refuse it: F asks the cell, and generation 1 is no longer lock 0's grant — C2 holds it with generation 2",
                    "Hold it until C1's session is renewed, then write it",
                ],
                explain: "F asks the master whether generation 1 is still lock 0's grant; at 3.93 s the answer comes \
                          back no, and F refuses the write as no longer current. Comparing generations alone would \
                          have let it in, since C2's generation 2 has not reached F yet: only the check against the \
                          cell's live state keeps it out. This is the difference the lease lab's lesson on fencing \
                          turns on. C1 learns at 3.92 s that its session ended; C2's write with generation 2 passes \
                          at 4.53 s.\n\n\
                          Servers that cannot check sequencers rely on Chubby's lock-delay instead: a lock lost by a \
                          failed holder cannot be taken for up to a minute. That narrows the window; it does not \
                          close it.",
                ..StepText::EMPTY
            },
            StepText {
                title: "The article's lease, granted by a Paxos group",
                body: "In the lease lab the store that grants the lease — the article's worker_leases row — has been \
                       one database. In real systems that store is itself replicated: Chubby, etcd, or a database \
                       with standbys. Here it is three replicas of a Multi-Paxos group, S1 to S3, with a master \
                       lease of 0.5 s. A worker's compare-and-set goes to the master; the master writes it into the \
                       log with its own clock's now(), a majority votes, and every replica applies the same \
                       statement. A replica that is not the master sends the worker to the one that is.\n\n\
                       S1 is the master. It granted W2 epoch 33 (TTL 3 s) and has renewed it every second, last at \
                       3.2 s: the row says 6.2 s, and W2's own, more cautious deadline is about 6.1 s. At 4 s S1 \
                       crashes. W2's renewal at 4.2 s went to S1 and is lost. It is 4.05 s.",
                question: "What happens to W2's lease?",
                options: &[
                    "It lapses: the master that granted it is gone, and no one else can renew it",
                    "It survives: once S1's master lease has run out, S2 or S3 becomes master and renews W2's lease before it expires",
                    "S2 and S3 each become master at once, and the lease may be granted twice",
                ],
                explain: "S2 and S3 promised S1 to follow no other master for 0.5 s, so they refuse the candidates at \
                          4.28 s and 4.38 s. S2 is elected at 4.8 s. W2's request at 4.2 s got no answer, so at 5.2 s \
                          W2 asks the next replica, S2, which renews epoch 33 — with W2's deadline 0.8 s away. The \
                          fail-over (the rest of the old master lease, then an election) fits inside the workers' \
                          slack, the TTL minus the renew interval; with a longer master lease W2 would lose its lease, \
                          but nothing unsafe would happen. The rest of the run is Kleppmann's story again: W2 pauses \
                          at 12.25 s, S2 grants W1 epoch 34 at 16 s, and W2's late write with 33 is refused. The fence \
                          does not care how the store is built; a store that is a Paxos group is what lets the lease \
                          outlive a database server. (This run is also in the lease lab: \"The store is a Paxos group\".)",
                ..StepText::EMPTY
            },
            StepText {
                title: "Azure: reads from the primary, writes to a quorum",
                body: "The seminar's first example in Part 2 is Azure's storage. Its data nodes are replicated: a read \
                       is served by the primary, a write follows a quorum (p.50). Then reconfiguration: a primary may \
                       fail, a secondary may be removed and a replica may be repaired, all overlapping, and the design \
                       stays safe when they do (p.51). The outline gives this shape, not the protocol behind it, and \
                       so does this lesson.\n\n\
                       Two threads of this course run through it. A quorum write holds for the reason B2 gives: any \
                       two quorums share a member, so every later quorum includes someone who has the write. And a \
                       read from the primary alone raises the two-masters question: is it still the primary? In \
                       Chubby a lease answers it; the outline does not say how Azure does.\n\n\
                       This page does not change a group's membership yet. The nearest runs are a replica that fell \
                       behind and catches up (\"Multi-Paxos: a replica catches up\") and a new master after a crash \
                       (the third and fourth steps). In every example of Part 2 the job is the same: a few replicas agree on what \
                       happened, in order, and on who may act for them. Part 3's proposers, acceptors and learners are \
                       how they agree.",
                ..StepText::EMPTY
            },
        ],
    },
    // ───────────────────────────────────────────────────────── two-masters
    LessonText {
        id: "two-masters",
        title: "Two masters, leases and fencing",
        summary: "A new master only after the old lease expires — and epochs and fencing tokens for when pauses and clocks lie.",
        steps: &[
            StepText {
                title: "The two-masters problem",
                body: "Paxos chooses a value; many systems use it to choose a master. The seminar asks: what if the old \
                       master has not noticed that it was replaced? Then two masters act at once. The seminar's answer \
                       is a lease: a new master is accepted only after the old master's lease has expired.\n\n\
                       Google's Chubby (Burrows, 2006) works this way. Among about five replicas, the master needs a \
                       majority's votes and their promise not to elect anyone else for a few seconds: its master \
                       lease. While it lasts, the master may serve reads alone, and a new election happens only after \
                       the leases lapse. A new master picks a new epoch number and rejects calls that carry an older \
                       one.\n\n\
                       Chubby does not trust time alone. Its sequencers (lock name, mode and a lock generation \
                       number) let servers reject stale requests: they are fencing tokens. Servers that cannot check \
                       them rely on lock-delay: a lock lost by a failed holder cannot be taken for up to a minute.\n\n\
                       The lease lab shows the same with workers W1–W3, a lease store (one row: holder, epoch, expiry, \
                       changed by one compare-and-set) and storage, orders, which checks the epoch of every write.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Kleppmann's tokens 33 and 34",
                body: "Martin Kleppmann's example (2016), replayed. W1 gets the lease with epoch 33 at 10 ms (the \
                       store starts counting at 32 to match his numbers) and renews it at 1.01 s. At 1.05 s, just \
                       after checking its lease and taking an order, its process pauses for 10 s, like a long garbage \
                       collection. The write is ready but not sent.\n\n\
                       The store hears nothing from W1, and on its clock the lease expires at 4.01 s. At 4.21 s W2 \
                       gets the lease with epoch 34 and starts writing order-1 with 34. W1, asleep, still believes it \
                       holds the lease: a split brain. The run is paused at 10.9 s, just before W1 wakes.",
                question: "W1 wakes from its pause and sends its write with token 33. What does storage (orders) do?",
                options: &[
                    "Accepts it: W1 still believes it holds the lease",
                    "Refuses it: it has already processed a write with 34",
                    "Asks the lease store first whether 33 is still valid",
                ],
                explain: "At 11.05 s W1 wakes and sends its write with 33. At 11.06 s orders refuses it: epoch 33 is \
                          below the 34 it has already written. Storage checks the token itself and never lets it go \
                          backwards. A token equal to the highest is still accepted, since one holder writes many \
                          times.\n\n\
                          W1's own check came too late. On waking it sent the write first, and only then noticed \
                          that its deadline had passed. A check on the client and the write it guards straddle the \
                          pause; only storage can close that gap. The split brain lasted 6.83 s and did no harm.\n\n\
                          Compare the scenario \"Tokens 33 and 34, fencing off\": there the late write with 33 \
                          overwrites W2's newer data.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Clocks beyond the bound",
                body: "A holder cannot read the store's clock. It times its own deadline on its own clock, started \
                       before it sends the request: TTL·(1−ρ)/(1+ρ) − margin, where ρ is the clock-rate error it \
                       assumes. Here TTL is 6 s, ρ is 0.1 % and the margin 0.3 s, so W1 gives up about 5.69 s after \
                       sending, while the store counts 6 s from receipt. With clocks within ρ, the holder always \
                       stops first.\n\n\
                       In this run the clocks are far worse than ρ: W1's runs 20 % slow, the store's 10 % fast. At 5 s \
                       W1 is cut off from the store, though it still reaches orders. On the store's fast clock W1's \
                       lease expires at 9.21 s. orders judges the row's expiry on its own clock, which keeps true \
                       time, so for it the lease lasts longer: it still takes W1's write at 9.54 s, and refuses \
                       the next, at 10.16 s, as expired. W2 takes the lease with epoch 2 at 10.21 s. W1's slow clock \
                       lets it believe until 10.86 s: 0.64 s of split brain, and its write at 10.79 s is refused \
                       because the row already holds epoch 2.\n\n\
                       Two clocks that disagree are why the article keeps the lease and the orders in one database, \
                       judged by one clock. The conservative deadline protects only while drift stays within ρ; a \
                       process pause or a clock that jumps breaks it outright. That is why fencing exists.",
                watch: "Watch W1's \"believes\" band run on past the store's, and the two refused writes on the \
                        orders lane at 10.2 s and 10.8 s.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Leases buy time; tokens buy safety",
                body: "A lease turns failure into delay (Gray and Cheriton, 1989): a conflicting write waits until \
                       every holder approves or its term runs out, so a crashed holder costs time, not correctness. \
                       But a lease depends on clocks. A fast server clock or a slow client clock can break it, \
                       exactly the two faults of the last run. Sending the term as a duration makes bounded drift \
                       enough; nothing makes a pause harmless.\n\n\
                       So a sound design has two layers. The lease, with a conservative deadline, makes split brain \
                       rare and short. The fencing token, checked by storage itself, makes it harmless: every write \
                       carries the epoch, and storage refuses an epoch below one it has already accepted. Epochs must \
                       strictly increase with each new holder.\n\n\
                       In our lease store the epoch grows only when the lease changes hands; the article implies a \
                       bump on every renewal. Both are safe. Bumping on every renewal also fences the holder's own \
                       writes still in flight.",
                ..StepText::EMPTY
            },
        ],
    },
    // ────────────────────────────────────────────────────────────── commit
    LessonText {
        id: "commit",
        title: "Two-phase commit and Paxos Commit",
        summary: "Watch two-phase commit block when its TM fails and Paxos Commit finish without it — and see that 2PC is Paxos Commit with F = 0.",
        steps: &[
            StepText {
                title: "Two-phase commit",
                body: "A distributed transaction touches several resource managers (RMs) and must commit at all of them \
                       or at none. In two-phase commit one transaction manager (TM) decides.\n\n\
                       Phase 1: RM1 is ready and asks the TM to commit; its own Prepared is the request. The TM sends \
                       Prepare to every other RM. Each RM writes its vote to stable storage before it sends it: Prepared \
                       or Aborted. Phase 2: the TM decides Commit if and only if every RM voted Prepared, writes the \
                       decision to its log, and only then sends Commit (or Abort) to all.\n\n\
                       From the moment it writes “prepared”, an RM is uncertain: it has promised to commit if told to, \
                       so it holds its locks and may neither commit nor abort on its own.\n\n\
                       Gray and Lamport count four message delays: RM1's request, Prepare, the votes, Commit. Here the \
                       TM runs on RM1's node, so the request crosses no network and the run takes three — and 3N−3 = 12 \
                       messages, where a TM on its own node needs 3N−1 = 14.",
                watch: "The amber band on each lane is the time its RM is uncertain, locks held. Count the arrows \
                        in the diagram and compare them with the table below.",
                ..StepText::EMPTY
            },
            StepText {
                title: "What if the TM fails?",
                body: "The same transaction. Every RM has written “prepared” and sent its vote. At 140 ms, before a \
                       single vote is counted, the TM's node crashes. It will come back at 3 s.",
                question: "What happens to RM2…RM5 while the TM is down?",
                options: &[
                    "They time out and abort: nobody told them to commit.",
                    "They commit on their own: they all voted prepared.",
                    "They wait, uncertain, holding their locks, until the TM returns.",
                ],
                explain: "They block. A prepared RM may not abort on its own — the TM might have decided Commit — nor \
                          commit — it does not know the other votes, and the TM might have decided Abort. Only the \
                          TM's log can say, and the TM is down. Back at 3 s, the TM finds no decision in its log, so \
                          it never told anyone to commit: it aborts (presumed abort), and the RMs release locks they \
                          held for about three seconds.\n\n\
                          Two-phase commit did nothing unsafe: atomicity and validity held throughout. What it lacks \
                          is liveness: one failure stops everyone.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Paxos Commit",
                body: "Gray and Lamport replace the TM's one log record with Paxos. Each RM's vote is decided by its own \
                       instance of the Synod, and all instances share 2F+1 acceptors — here F = 1: three acceptors, on \
                       RM1, RM2 and RM3. The transaction ends while any F+1 of them work.\n\n\
                       Ballot 0 of each instance belongs to its RM, so a ready RM skips phase 1: it writes “prepared” \
                       and sends it as a phase-2a message straight to F+1 acceptors (any two of three are a majority). \
                       Each acceptor writes the votes of all five RMs at once and sends one 2b to the leader — at \
                       first the TM, on RM1's node. The leader commits when every instance chose “prepared”, and aborts \
                       as soon as one chose “aborted”.",
                watch: "Each RM's 2a goes to two acceptors; each acceptor answers with one 2b for all five. 17 \
                        messages, one message delay and one write (N+F+1) more than two-phase commit: see the table.",
                ..StepText::EMPTY
            },
            StepText {
                title: "…and if the leader fails?",
                body: "The same crash in Paxos Commit: at 140 ms the leader's node — RM1, also an acceptor — crashes, \
                       and comes back at 3 s. RM2 carries a backup coordinator.",
                question: "What happens to RM2…RM5?",
                options: &[
                    "They block until RM1 returns, as in two-phase commit.",
                    "RM2's coordinator finishes the transaction and they commit without waiting for RM1.",
                    "They abort: the leader never said Commit.",
                ],
                explain: "RM2's coordinator waits two timeouts, then runs a ballot of its own, (1,RM2), in every \
                          instance: phase 1a to the three acceptors. RM2's and RM3's acceptors answer — a majority — \
                          and RM2's reports the “prepared” each RM voted in ballot 0. B3 forces the coordinator to keep \
                          those votes: it proposes “prepared” everywhere, the acceptors vote, and it sends Commit at \
                          about 1.5 s, without RM1. In an instance where no acceptor of the majority reported a vote it \
                          would have proposed “aborted”. Two coordinators at once can delay the outcome, never change \
                          it. RM1 learns it after it returns.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Two-phase commit is Paxos Commit with F = 0",
                body: "Set F = 0: one acceptor, on the TM's node. Each RM's ballot-0 2a to it is two-phase commit's \
                       Prepared; the acceptor's written vote is the TM's log record; the leader's Commit is the TM's \
                       Commit — the seminar's phase 3.\n\n\
                       Zero fault tolerance is exactly why two-phase commit blocks: with one acceptor, its failure \
                       stops everything. With F = 1, any one of the three may fail.",
                watch: "The two diagrams, Paxos Commit with F = 0 and two-phase commit (each titled above it). The same arrows between the same nodes \
                        at the same moments: 12 messages and 6 writes each.",
                ..StepText::EMPTY
            },
            StepText {
                title: "The price of not blocking",
                body: "Two-phase commit is already safe: it never commits at one RM and aborts at another. What Paxos \
                       Commit buys is liveness — the transaction ends while a majority of acceptors works — and it pays \
                       in messages. With 5 RMs and F = 1, two-phase commit sends 12 messages (the TM on RM1's node; 14 \
                       with a TM of its own), Paxos Commit 17 and Faster Paxos Commit 20: Gray and Lamport's formulas, \
                       and the runs' counts below. Both write to stable storage in two steps: the RMs' votes, then the \
                       TM's log or the acceptors' votes.\n\n\
                       Faster Paxos Commit has the acceptors send their 2b straight to every RM: one message delay \
                       less, more messages.",
                ..StepText::EMPTY
            },
        ],
    },
    // ─────────────────────────────────────────────────────────── llm-lease
    LessonText {
        id: "llm-lease",
        title: "The lease loop is not a chat completion",
        summary: "Why an LLM does not belong inside a lease loop: a stall, a missing fence, an outage drill — and where it does belong.",
        steps: &[
            StepText {
                title: "The boring loop",
                body: "The article \"The Lease Loop Is Not a Chat Completion\" starts from the loop that keeps one \
                       worker exclusive. Every R the worker renews its lease with one compare-and-set on a single row: \
                       holder, epoch, expiry. The store answers with the epoch, or with nothing. While the lease \
                       holds, the worker works and stamps every write with the epoch, and storage refuses a write \
                       whose epoch is not current.\n\n\
                       The article calls the epoch a counter with an expiry; strictly, the lease expires and the \
                       counter only grows. Renewal runs every few hundred milliseconds. The lab's default is slower, so \
                       that each renewal can be followed on screen: the TTL is 3 s and R is a third of it. The worker \
                       times its deadline from before it sent the request.\n\n\
                       Now put an LLM inside: before each renewal, ask the model whether to keep the lease, and wait \
                       for the answer. The figure shows what goes wrong: while the loop waits for seconds, the lease \
                       expires, and the renewal comes too late.",
                labels: &[
                    "the boring loop",
                    "renew (one compare-and-set)",
                    "work, each write stamped with the epoch",
                    "sleep R",
                    "the LLM in the loop",
                    "ask the LLM…",
                    "…and wait seconds",
                    "renew — too late",
                    "the lease expired while it waited",
                ],
                ..StepText::EMPTY
            },
            StepText {
                title: "A 12-second stall",
                body: "Three workers run the LLM-in-the-loop design. Each turn a worker asks an LLM whether to keep the \
                       lease, waits for the answer, then writes and renews. The LLM is a fast API, about 0.3 s per \
                       answer. W1 holds the lease with epoch 1; the TTL is 3 s.\n\n\
                       The run is paused at 6 s. W1's next LLM call, at 6.9 s, will take 12 s. While the loop waits, \
                       nothing else in it runs: no deadline check, no renewal.",
                question: "W1's next LLM call is about to stall for 12 s, with a 3 s TTL. What happens?",
                options: &[
                    "Nothing: W1 renews as soon as the answer comes",
                    "The store waits for W1 before giving the lease to anyone else",
                    "Another worker takes the lease while W1 still believes it holds it; when W1 wakes it writes with its stale epoch, and fencing refuses it",
                ],
                explain: "On the store's clock W1's lease expires at 8.91 s. At 9.57 s W2 takes it with epoch 2. W1 is \
                          still waiting and still believes: a split brain that lasts 9.4 s.\n\n\
                          At 18.93 s W1's answer arrives: \"keep the lease\". W1 writes the order it took before the \
                          call, with epoch 1, and tries to renew. orders refuses the write (epoch 1 < 2), the store \
                          says no (W2 holds epoch 2), and only then does W1 stop believing.\n\n\
                          The loop broke; only the fence saved the data. The lab's latency flag (p99 above TTL/2) stays \
                          quiet here: half of the lab's 3 s TTL is 1.5 s, and the API's p99 is 0.76 s. At the article's \
                          cadence, a TTL of about a second, the same API trips it (the scenario \"The article's \
                          cadence\"). Here one stall was enough.",
                ..StepText::EMPTY
            },
            StepText {
                title: "The same stall, fencing off",
                body: "The same run, but orders does not check epochs. Up to 18.9 s nothing differs: W2 takes over with \
                       epoch 2 at 9.57 s and writes order-1 and order-2 with it.\n\n\
                       At 18.94 s W1's stale write reaches orders, and lands. order-1 now holds data written under \
                       epoch 1, on top of W2's newer epoch-2 data: a lost update. The Fenced writes invariant breaks.\n\n\
                       Nothing in W1 looked wrong: it asked, got \"keep\", and wrote. A lease alone cannot protect \
                       storage from a holder that does not know it has lost the lease.",
                watch: "Watch the orders lane at 18.9 s: W1's epoch-1 write is accepted after W2's epoch-2 writes, and \
                        Fenced writes turns red.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Three objections",
                body: "The article's first objection is latency. Leases renew every few hundred milliseconds; an LLM \
                       takes seconds, and sometimes stalls or stops halfway. A wait longer than the TTL hands the \
                       lease to someone else while the waiter still believes: split brain, as you have just seen.\n\n\
                       The second is non-determinism. Ask twice and get two answers; sometimes a truncated reply, \
                       sometimes JSON that does not parse. A control loop must decide the same way for the same \
                       health input, every time.\n\n\
                       The third is authority. A vendor's service may filter a request, rate-limit it or rewrite its \
                       answer. Then a decision at the core of your system, who may write, depends on someone else's \
                       policy, and none of it shows on your dashboards. In the lab's in-the-loop design a refusal, a \
                       429 or malformed JSON each skip a renewal round.\n\n\
                       A better prompt fixes none of this. These are properties of where the LLM sits.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Ask twice, get two answers",
                body: "Non-determinism, alone. This LLM is as fast as the fast API and never stalls, but its answers \
                       vary: mostly \"keep\", now and then \"release\", now and then JSON that does not parse. \
                       Nothing else changes during the run.\n\n\
                       W1 takes the lease at 0.28 s. At 16.5 s its LLM says \"release\", and W1 obeys: it gives the \
                       lease up, and W3 takes it with epoch 2 at 16.9 s. At 24.0 s W3 is told the same, and W1 takes \
                       the lease back with epoch 3 at 24.4 s. Each malformed answer skips a round, renewal included.\n\n\
                       Two handovers in 30 s, for no reason anyone could find in the system: the same input, different \
                       decisions. A control loop must decide the same way for the same input, every time.",
                watch: "Watch the LLM lane for answers that are not \"keep\", and the store's grants: epoch 2 at 16.9 s, \
                        epoch 3 at 24.4 s.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Someone else's policy",
                body: "Authority, alone. The same fast API, but its vendor rate-limits one call in five (429, retry \
                       after 2 s), and its filter refuses one in twenty. The loop obeys the vendor, as well-behaved \
                       code does: it waits the two seconds, and meanwhile nothing renews.\n\n\
                       W1 holds the lease from 0.28 s. A 429 at 1.76 s makes it wait; its lease lapses on the store at \
                       3.28 s, and the write it sends at 4.14 s is refused. The same happens after a 429 at 10.6 s, \
                       and again at 19.5 s, after which W3 takes over with epoch 4 at 21.8 s. Three late writes are \
                       refused, at 4.1, 12.8 and 24.0 s.\n\n\
                       Nothing in your system failed: your workers, your database and your network were fine. Someone \
                       else's policy decided who may write, and none of it shows on your dashboards.",
                watch: "Watch the 429s and refusals on the LLM lane, the lapses on the store's lane, and the three \
                        refused writes on orders.",
                ..StepText::EMPTY
            },
            StepText {
                title: "The LLM beside the loop",
                body: "The same 12 s stall at 6 s, but the LLM now sits beside the loop. The loop is the boring one: \
                       renew, work, sleep, and it talks only to the database. The workers never call the LLM. A \
                       separate advisor does: when a lease lapses, the database hands it the row, and the advisor asks \
                       the LLM to explain and files the answer where nothing waits for it.\n\n\
                       In this run nothing goes wrong. W1 holds the lease for all 30 s: one grant, 29 renewals, 60 \
                       writes accepted, no split brain. No lease lapses, so even the advisor has nothing to ask, and \
                       the stall has nothing to delay. All four red flags stay quiet; the first because no worker ever \
                       sends the LLM a question, as the trace shows.\n\n\
                       This is where an LLM helps: explaining, afterwards, from the records.",
                watch: "Watch W1 renew every second and write every half second, and nothing happen at 6 s: the LLM \
                        lane stays idle.",
                ..StepText::EMPTY
            },
            StepText {
                title: "The outage drill",
                body: "The article recommends a drill: take the LLM away and see whether the loop still works. Here the \
                       LLM vendor goes down at 5 s, with the LLM inside the loop.\n\n\
                       From then on every answer is \"503 unavailable\". The parse fails, the round is skipped, and \
                       nobody renews. W1's lease expires on the store at 7.46 s, and W1 stops believing at 7.56 s. \
                       Nobody else can take the lease, since acquiring also waits for the LLM's \"keep\". For the rest \
                       of the run no order is written.\n\n\
                       Safe, but stopped: an outage at a vendor you do not control has become your outage. For the \
                       lease loop an LLM must be optional, never required.",
                watch: "Watch the 503 answers arrive, the lease lapse at about 7.5 s, and the orders lane fall silent.",
                ..StepText::EMPTY
            },
            StepText {
                title: "The article's cadence",
                body: "Red flag 2 at the article's pace: renewal every 300 ms, a TTL of 1 s. The LLM is the fast API of \
                       the stall story, about 0.3 s a call, and nothing stalls. But its 99th percentile, 0.76 s, is \
                       above half the TTL, and the flag is raised.\n\n\
                       No stall is needed. At 2.48 s an answer that took 0.82 s lets W1's lease lapse; its write is \
                       refused, and it takes the lease again with epoch 2. At 20.36 s an answer of 1.09 s does the \
                       same, and this time W3 is first, with epoch 3 at 20.43 s: 0.32 s of split brain, and W1's late \
                       write is refused. At 27.41 s it is W3's turn.\n\n\
                       The lab's default, a 3 s TTL renewed every second, is slower so that you can follow each \
                       renewal; at that TTL this API passes the flag. At the article's cadence it does not.",
                watch: "Watch the lapses on the store's lane at 2.5, 20.4 and 27.4 s, and the red flags under the \
                        SQL: p99 0.76 s against TTL/2 0.5 s.",
                ..StepText::EMPTY
            },
            StepText {
                title: "Stretching the TTL",
                body: "Red flag 3. The LLM in this loop takes about 2 s, too slow for a 3 s TTL, so the TTL has been \
                       stretched to 10 s to wait for it. The loop works again, slowly: R is a third of the TTL, and \
                       every turn waits for the LLM too.\n\n\
                       At 5 s W1, the holder, crashes. The store cannot know: it keeps W1's lease until 11.9 s, and \
                       tells W2 and W3 no at 8.2 and 8.5 s. W2 takes over with epoch 2 only at 13.2 s, so for eight \
                       seconds after the crash nobody may write an order. The red flags measure the same crash with \
                       the 3 s baseline: a failover of 3.8 s instead of 11.3 s, counted from W1's last grant.\n\n\
                       The danger grows with the TTL too: a holder cut off from the store keeps acting on its lease for \
                       up to its whole budget, 9.48 s here instead of 2.84 s. Whatever goes wrong in that window, a \
                       pause, a partition, a slow answer, has longer to do harm.",
                watch: "Watch the store's lane: W1's lease runs on after the crash at 5 s, and W2 and W3 are told no; \
                        then the red flags, with the failover and the exposure against the 3 s baseline.",
                ..StepText::EMPTY
            },
            StepText {
                title: "The rule in one sentence",
                body: "The article's red flags: the lease module imports an LLM SDK or a general HTTP client, when \
                       lease code should talk only to the database; LLM latency exceeds TTL/2, so renewals cannot land \
                       in time; the TTL is stretched to wait for the LLM, which widens the split-brain window and slows \
                       failover; a drill with the LLM down breaks the loop; and nobody can state the lease rule in one \
                       sentence without mentioning the LLM.\n\n\
                       Ours: \"Write orders only while you hold the unexpired order-processor row, and stamp each \
                       write with its epoch, which the DB refuses unless current.\"\n\n\
                       Use tools built for the job: PostgreSQL advisory locks, etcd, Consul, ZooKeeper. Advisory locks \
                       are bound to a database session and give no token, so the writes still need a fence.\n\n\
                       And put the LLM where it helps: after an incident, reading the logs to explain what happened. \
                       Control stays boring, and that is what makes it reliable.",
                ..StepText::EMPTY
            },
        ],
    },
];
